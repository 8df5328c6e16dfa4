import { ErrorDetailSchema, PositiveInt4 } from '@qiraa/http-kit';
import { Type } from 'typebox';
import { WINDOWS } from '../queries/catalogTypes';
import {
  DEFAULT_DURATION_SECONDS,
  DEFAULT_WORDS_PER_ROW,
  WORD_LIST_REJECT_REASONS,
  WORD_LIST_SCOPES,
  WORD_LIST_STATUSES,
  WORD_LIST_WARNING_CODES,
} from '../rules/wordListRules';
import { ArabicText, ExternalIdSchema, GradeSchema, literals, WindowSchema } from '.';

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);
const ListWindow = Type.Union([WindowSchema, Type.Null()], {
  description: 'the window the list serves; null: an all-window list (served in every window)',
});

// Bounds here only cap the body size; the builder's checks give the reasoned refusals (too_many_words, ...).
export const WordsSchema = Type.Array(Type.String({ maxLength: 40 }), {
  maxItems: 200,
  description: 'the words in reading order, one word each (Arabic letters and diacritics)',
});
export const TimingBodySchema = Type.Object({
  timed: Type.Boolean(),
  durationSeconds: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description: `10 to 600; omitted on a timed list: ${DEFAULT_DURATION_SECONDS}; must be absent or null when untimed`,
    }),
  ),
});
const WordsPerRowBody = Type.Union([Type.Integer(), Type.Null()], {
  description: `1 to 10 words per sheet row; null or omitted: the list names none (the sheet uses ${DEFAULT_WORDS_PER_ROW})`,
});
const ReadingNoteBody = Type.Union([ArabicText(500), Type.Null()], {
  description: 'a note for the teacher who reads the list with the child; passes the language filter',
});

export const CreateWordListBody = Type.Object({
  externalId: ExternalIdSchema,
  organizationId: Type.Optional(
    Type.String({ description: 'omitted: the caller’s own organization (global for the super-admin)' }),
  ),
  schoolId: Type.Optional(Type.String({ description: 'a school of that organization: a school list' })),
  grade: GradeSchema,
  skillId: Type.String({ maxLength: 64, description: 'a skill with a word-list cell in the grade' }),
  window: ListWindow,
  words: WordsSchema,
  timing: Type.Optional(TimingBodySchema),
  wordsPerRow: Type.Optional(WordsPerRowBody),
  readingNoteAr: Type.Optional(ReadingNoteBody),
  publish: Type.Optional(
    Type.Boolean({ default: true, description: 'true (default): operational at once; false: a draft' }),
  ),
});

export const PatchWordListBody = Type.Object({
  ifVersion: Type.Integer({ ...PositiveInt4, description: 'the version the editor read; another is 412 stale' }),
  words: Type.Optional(WordsSchema),
  timing: Type.Optional(TimingBodySchema),
  wordsPerRow: Type.Optional(WordsPerRowBody),
  readingNoteAr: Type.Optional(ReadingNoteBody),
  window: Type.Optional(ListWindow),
});

export const WordListSchema = Type.Object({
  id: Type.String(),
  externalId: Type.String(),
  scope: literals(WORD_LIST_SCOPES),
  organizationId: Type.Union([Type.String(), Type.Null()]),
  schoolId: Type.Union([Type.String(), Type.Null()]),
  version: Type.Integer({ minimum: 1 }),
  status: literals(WORD_LIST_STATUSES),
  grade: GradeSchema,
  skillId: Type.String(),
  skillLabelAr: Type.String(),
  window: ListWindow,
  words: Type.Array(Type.String()),
  wordCount: Type.Integer({ minimum: 0 }),
  timing: Type.Object({
    timed: Type.Boolean(),
    durationSeconds: Type.Union([Type.Integer(), Type.Null()], { description: 'null on an untimed list' }),
  }),
  wordsPerRow: Type.Integer({ description: `${DEFAULT_WORDS_PER_ROW} when the list names none` }),
  readingNoteAr: Type.Union([Type.String(), Type.Null()]),
  assessmentsCount: Type.Integer({ minimum: 0, description: 'assessments that read this version' }),
  createdAt: DateTime,
  updatedAt: DateTime,
  publishedAt: Type.Union([DateTime, Type.Null()], { description: 'when it last became operational' }),
  retiredAt: NullableDateTime,
});

const RejectSchema = Type.Object({
  reason: literals(WORD_LIST_REJECT_REASONS),
  details: Type.Array(ErrorDetailSchema),
});
const WarningSchema = Type.Object({
  code: literals(WORD_LIST_WARNING_CODES),
  details: Type.Array(ErrorDetailSchema),
});
export const WarningsSchema = Type.Array(WarningSchema);

export const CheckSchema = Type.Object({
  ok: Type.Boolean(),
  reject: Type.Optional(RejectSchema),
  warnings: WarningsSchema,
});

/** 422 of create and edit: the ApiError envelope plus, for a refused list, the validate shape. */
export const WordListRejectedSchema = Type.Object(
  {
    code: Type.String({ description: 'VALIDATION_ERROR' }),
    message: Type.String(),
    details: Type.Optional(Type.Array(ErrorDetailSchema)),
    reason: Type.Optional(Type.String({ description: 'the reject reason, or no_change (PATCH)' })),
    ok: Type.Optional(Type.Boolean({ description: 'false on a refused list' })),
    reject: Type.Optional(RejectSchema),
    warnings: Type.Optional(WarningsSchema),
  },
  {
    description:
      'Validation failed. A refused list carries reason (the reject reason) and the validate shape (ok: false, ' +
      'reject, warnings); a body that does not match the schema carries details only.',
  },
);

export const WordListWithWarnings = Type.Object({ ...WordListSchema.properties, warnings: WarningsSchema });

export const VersionSummarySchema = Type.Object({
  id: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  status: literals(WORD_LIST_STATUSES),
  wordCount: Type.Integer({ minimum: 0 }),
  updatedAt: DateTime,
});

export const BuilderViewSchema = Type.Object({
  lists: Type.Array(WordListSchema),
  cells: Type.Array(
    Type.Object({
      grade: GradeSchema,
      skillId: Type.String(),
      window: literals(WINDOWS),
      minWords: Type.Integer(),
      maxWords: Type.Integer(),
      pickedListId: Type.Union([Type.String(), Type.Null()], {
        description: 'the list the service serves the organization (no school) in this cell; null: none',
      }),
    }),
  ),
  skills: Type.Array(Type.Object({ id: Type.String(), labelAr: Type.String(), grades: Type.Array(GradeSchema) })),
});
