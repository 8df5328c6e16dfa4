import {
  bandFields,
  enumOf,
  MeasureCompositeSchema,
  MeasureItemReviewSchema,
  MeasureResultSchema,
  ORF_MARKS,
  PAGE_CELLS,
  SCREENING_WINDOWS,
  VOID_REASONS,
} from '@qiraa/assessment';
import { SkillStatusQuery, SkillStatusRowSchema } from '@qiraa/decisions';
import { type Static, type TSchema, Type } from 'typebox';
import { DETAIL_KINDS, SESSION_KINDS } from './queries/sessionKinds';

const Nullable = <T extends TSchema>(schema: T, options: Record<string, unknown> = {}) =>
  Type.Union([schema, Type.Null()], options);

/** Page size of the session results: 20 by default, at most 100. */
export const RESULTS_PAGE_DEFAULT = 20;
export const RESULTS_PAGE_MAX = 100;

export const security = [{ bearerAuth: [] }];
export const tags = ['reports'];

const AcademicYear = Type.String({ pattern: '^[0-9]{4}-[0-9]{4}$', description: 'academic year `YYYY-YYYY`' });
const Window = enumOf(SCREENING_WINDOWS, { description: 'screening window' });
const Kind = enumOf(SESSION_KINDS, {
  description:
    'digital_sitting (a digital diagnostic sitting: the window’s or a re-diagnostic, see mode), oral_text (an oral ' +
    'reading of a passage), oral_word_list (a word-list read); the same words as the void body',
});

const StudentId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the student’s user id' });

export const StudentParams = Type.Object({ id: StudentId });

export const SessionParams = Type.Object({
  id: StudentId,
  kind: enumOf(DETAIL_KINDS, {
    description:
      'digital_sitting, oral_text, oral_word_list (as in session-results), or training_day (a day of practice: ' +
      'an id from GET /api/practice/students/{studentId}/training-sessions)',
  }),
  sessionId: Type.String({ format: 'uuid', description: 'the session’s id (sessionId of a session-results row)' }),
});

export const ResultsQuery = Type.Object({
  academicYear: Type.Optional(AcademicYear),
  window: Type.Optional(Window),
  kind: Type.Optional(Kind),
  includeVoided: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'also list voided sessions, marked with their void (the audit trail); default false',
    }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'nextCursor of the previous page' })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: RESULTS_PAGE_MAX,
      default: RESULTS_PAGE_DEFAULT,
      description: `page size, default ${RESULTS_PAGE_DEFAULT}, at most ${RESULTS_PAGE_MAX}`,
    }),
  ),
});

const VoidMark = Nullable(
  Type.Object({
    id: Type.String({ pattern: '^void:[0-9]+$', description: 'the void’s audit id `void:<int>`' }),
    reason: enumOf(VOID_REASONS),
    at: Type.String({ format: 'date-time' }),
  }),
  { description: 'null unless the session was voided (then it is out of every decision, trend and read)' },
);

/** What every session row and the detail say about the session itself. */
const sessionFields = {
  studentId: Type.Integer(),
  sessionId: Type.String({ format: 'uuid' }),
  kind: Kind,
  cell: enumOf(PAGE_CELLS, { description: 'the teacher page’s cell the session fills' }),
  mode: Nullable(enumOf(['window', 're_diagnostic'] as const), {
    description: 'digital sittings: the window’s screening or a re-diagnostic; null for oral sessions',
  }),
  academicYear: Type.String(),
  window: Window,
  grade: Type.Integer({ minimum: 1, maximum: 4 }),
  classId: Type.String({ description: 'the class the child sat it in' }),
  at: Type.String({ format: 'date-time', description: 'when it started' }),
  endedAt: Nullable(Type.String({ format: 'date-time' })),
  status: enumOf(['in_progress', 'done', 'stopped'] as const),
  endReason: Nullable(enumOf(['completed', 'stopped_by_teacher', 'window_closed', 'voided'] as const)),
  voided: VoidMark,
};

const MeasureSummary = Type.Object({
  measureCode: Type.String(),
  labelAr: Type.String(),
  raw: Type.Integer(),
  max: Type.Integer(),
  complete: Type.Boolean(),
  incompleteReason: Nullable(Type.String()),
  level: Nullable(Type.Integer({ minimum: 1, maximum: 4 })),
  trainingLevel: MeasureResultSchema.properties.trainingLevel,
  provisional: Type.Boolean(),
});

const ReadSummary = Type.Object({
  wcpm: bandFields.wcpm,
  accuracy: bandFields.accuracy,
  band: bandFields.band,
  rateCut: bandFields.rateCut,
  provisional: bandFields.provisional,
});

export const SessionResultSchema = Type.Object({
  ...sessionFields,
  summary: Type.Object(
    {
      measures: Nullable(Type.Array(MeasureSummary), {
        description: 'digital sittings: each measure’s raw, max and level (scored with the pinned cuts); else null',
      }),
      composite: Nullable(MeasureCompositeSchema, {
        description: 'digital sittings with both passages: comprehension out of 12 (informational); else null',
      }),
      read: Nullable(ReadSummary, {
        description: 'oral readings and word-list reads once scored; null for digital sittings and open readings',
      }),
    },
    { description: 'the session’s result in short' },
  ),
});

export const SessionResultsResponse = Type.Object({
  studentId: Type.Integer(),
  items: Type.Array(SessionResultSchema, { description: 'newest first' }),
  nextCursor: Nullable(Type.String(), { description: 'pass as cursor for the next page; null on the last page' }),
});

const Counted = (description: string) => Nullable(Type.Integer({ minimum: 0 }), { description });

const OralReadingDetail = Type.Object(
  {
    passageId: Type.String(),
    passageVersion: Type.Integer(),
    wordCount: Type.Integer({ minimum: 1 }),
    durationSeconds: Type.Integer({ minimum: 1 }),
    marks: Type.Array(Type.Object({ wordIndex: Type.Integer({ minimum: 0 }), mark: enumOf(ORF_MARKS) }), {
      description: 'the latest mark of each marked word, by word index',
    }),
    markSummary: Type.Object(
      {
        errors: Type.Integer({ minimum: 0, description: 'words up to the last one read whose latest mark is error' }),
        selfCorrections: Type.Integer({ minimum: 0, description: 'self-corrections up to the last word read' }),
        dropped: Type.Integer({ minimum: 0, description: 'error or self-correction marks past the last word read' }),
      },
      { description: 'until the stop, every mark counts as up to the last word' },
    ),
    lastWordIndex: Counted('null until stopped'),
    elapsedSeconds: Counted('null until stopped'),
    attempted: Counted('last word index + 1; null until stopped'),
    errors: Counted('null until stopped'),
    correct: Counted('null until stopped'),
    ...bandFields,
  },
  { description: 'an oral reading’s marks and scores (from the raw counts with the pinned cut table)' },
);

const WordListReadDetail = Type.Object(
  {
    wordListId: Type.String(),
    wordListVersion: Type.Integer(),
    wordCount: Type.Integer({ minimum: 1 }),
    timed: Type.Boolean(),
    errorIndices: Type.Array(Type.Integer({ minimum: 0 })),
    lastWordIndex: Counted('timed lists only'),
    elapsedSeconds: Counted('timed lists only'),
    attempted: Type.Integer({ minimum: 0 }),
    errors: Type.Integer({ minimum: 0 }),
    correct: Type.Integer({ minimum: 0 }),
    droppedMarks: Type.Integer({ minimum: 0 }),
    ...bandFields,
  },
  { description: 'a word-list read’s counts and scores (from the raw counts with the pinned cut table)' },
);

const AssessmentSessionDetail = Type.Object({
  ...sessionFields,
  measures: Nullable(Type.Array(MeasureResultSchema), {
    description: 'digital sittings: MeasureResult[] (scored live with the cut versions pinned at the start)',
  }),
  composite: Nullable(MeasureCompositeSchema, { description: 'digital sittings: MeasureComposite' }),
  itemReview: Nullable(Type.Array(MeasureItemReviewSchema), {
    description:
      'digital sittings: MeasureItemReview[] in plan order (position, pattern, skill, correct, the child’s answer; ' +
      'never question text or the correct option); null for other sessions',
  }),
  oralReading: Nullable(OralReadingDetail, { description: 'oral_text only' }),
  wordListRead: Nullable(WordListReadDetail, { description: 'oral_word_list only' }),
  trainingGroups: Type.Null({ description: 'training days only; null for other sessions' }),
});

const TrainingRole = enumOf(['ordinary', 'retry', 'support', 'exit'] as const);

export const TrainingGroupSchema = Type.Object({
  targetSkillId: Type.String(),
  targetLabelAr: Type.String(),
  levelNameAr: Type.String(),
  groups: Type.Array(
    Type.Object({ role: TrainingRole, labelAr: Type.String(), answered: Type.Integer(), correct: Type.Integer() }),
    { description: 'by role: ordinary, retry, support, exit (roles without answers left out)' },
  ),
});

/** A training day's detail: what the day is, and its answers grouped by target and role. */
const TrainingDayDetail = Type.Object({
  studentId: Type.Integer(),
  sessionId: Type.String({ format: 'uuid' }),
  kind: Type.Literal('training_day'),
  schoolDay: Type.String({ format: 'date', description: 'the school day of the practice' }),
  ended: Type.Boolean(),
  endReason: Nullable(enumOf(['done', 'cap', 'window_closed'] as const)),
  measures: Type.Null(),
  composite: Type.Null(),
  itemReview: Type.Null(),
  oralReading: Type.Null(),
  wordListRead: Type.Null(),
  trainingGroups: Type.Array(TrainingGroupSchema, {
    description: 'the day’s answers grouped by target (targetSkillId, targetLabelAr, levelNameAr), then by role',
  }),
});

export const SessionDetailResponse = Type.Union([AssessmentSessionDetail, TrainingDayDetail]);

export const SubSkillReportQuery = SkillStatusQuery;

const ReportSession = Type.Object({
  kind: Kind,
  sessionId: Type.String({ format: 'uuid', description: 'open it with …/sessions/{kind}/{sessionId}' }),
});

export const SubSkillReportRow = Type.Object({
  ...SkillStatusRowSchema.properties,
  sessions: Type.Array(ReportSession, {
    description: 'the sessions the decision rests on (its sittings, then its reads, oldest first); voided ones are out',
  }),
  trainingLevel: Nullable(Type.Integer({ minimum: 1 }), {
    description:
      'the training level (1-4) of the sub-skill’s skill in the report’s academic year: its screen seed (rule ' +
      'TLS-01) until training moves it; null when the skill has no seed (held, incomplete or voided measure)',
  }),
});

export const SubSkillReportResponse = Type.Object({
  studentId: Type.Integer(),
  academicYear: Nullable(AcademicYear, { description: 'null when nothing is decided yet' }),
  window: Nullable(Window, { description: 'the window the rows are of; null when none' }),
  windows: Type.Array(Type.Object({ academicYear: AcademicYear, window: Window }), {
    description: 'every window with decisions, newest first',
  }),
  rows: Type.Array(SubSkillReportRow, { description: 'one per sub-skill the window’s evidence covers, catalog order' }),
});
export type SubSkillReportResponse = Static<typeof SubSkillReportResponse>;
