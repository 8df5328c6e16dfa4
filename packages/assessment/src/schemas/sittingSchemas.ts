import { SECTION_KEYS } from '@qiraa/content';
import { type TSchema, Type } from 'typebox';
import { INCOMPLETE_REASONS } from '../engine/scoreMeasure';

const literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));
const Nullable = <T extends TSchema>(schema: T, options: Record<string, unknown> = {}) =>
  Type.Union([schema, Type.Null()], options);

export const SittingParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'the sitting id (from start)' }),
});

export const AnswerBody = Type.Object(
  {
    itemId: Type.String({ minLength: 1, maxLength: 64, description: 'the question served now' }),
    answer: Type.String({ minLength: 1, maxLength: 16, description: 'the key of the chosen option' }),
  },
  { additionalProperties: false },
);

export const ReDiagnosticBody = Type.Object(
  {
    subSkillIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
        description: 'a skill cell: the sub-skills to re-sit (required there); a measure cell ignores it',
      }),
    ),
  },
  { additionalProperties: false },
);

const SectionKey = literals(SECTION_KEYS);
const Section = Type.Object({ key: SectionKey, total: Type.Integer({ minimum: 1 }) });

const StudentItem = Type.Object(
  {
    id: Type.String(),
    version: Type.Integer(),
    stemAr: Type.String(),
    options: Type.Array(Type.Object({ key: Type.String(), textAr: Type.String() })),
    passageId: Nullable(Type.String()),
  },
  { description: 'the student projection of the question: never the correct option, pattern, level or rule' },
);
const Passage = Type.Object({ id: Type.String(), titleAr: Type.String(), bodyAr: Type.String() });

const sessionStateFields = {
  sittingId: Type.String({ format: 'uuid' }),
  mode: literals(['window', 're_diagnostic'] as const),
  status: literals(['in_progress', 'done', 'stopped'] as const),
  endReason: Nullable(literals(['completed', 'stopped_by_teacher', 'window_closed', 'voided'] as const)),
  completed: Type.Boolean(),
  sections: Type.Array(Section, { description: 'presentation only, in form order' }),
  state: Type.Object({
    sectionKey: Nullable(SectionKey, { description: 'section of the question served now; null when none' }),
  }),
  progress: Type.Object({ answered: Type.Integer(), total: Type.Integer() }),
  item: Nullable(StudentItem),
  passage: Nullable(Passage),
  breakBefore: Type.Boolean({
    description: 'grades 3 and 4: true on the question that follows the last question on a passage',
  }),
};

export const StudentSessionState = Type.Object(sessionStateFields, {
  description: 'a student’s diagnostic sitting: where it stands and the question served now (student projection)',
});

export const StartDiagnosticResponse = Type.Object(
  {
    ...sessionStateFields,
    sittingId: Nullable(Type.String({ format: 'uuid' }), { description: 'null when nothing can be served' }),
    mode: Nullable(sessionStateFields.mode),
    status: Nullable(sessionStateFields.status),
    resumed: Type.Boolean({ description: 'an open sitting of this window was resumed' }),
    firstItemId: Nullable(Type.String(), { description: 'the question served now; null with reason' }),
    reason: Type.Optional(literals(['no_screening_form'] as const)),
  },
  { description: 'StartDiagnosticResponse' },
);

const IncompleteReason = literals(Object.keys(INCOMPLETE_REASONS) as (keyof typeof INCOMPLETE_REASONS)[]);
const Level = Type.Integer({ minimum: 1, maximum: 4 });

export const MeasureResultSchema = Type.Object({
  measureCode: Type.String(),
  labelAr: Type.String(),
  raw: Type.Integer(),
  max: Type.Integer(),
  complete: Type.Boolean(),
  incompleteReason: Nullable(IncompleteReason),
  incompleteReasonAr: Nullable(Type.String()),
  level: Nullable(Level),
  trainingLevel: Nullable(Type.Object({ source: literals(['screen'] as const), number: Level })),
  provisional: Type.Boolean(),
  sessionId: Type.String(),
  cutVersion: Nullable(Type.String()),
});

/** Spec `MeasureComposite`. */
export const MeasureCompositeSchema = Nullable(
  Type.Object(
    { score: Type.Integer({ minimum: 0, maximum: 12 }), outOf: Type.Literal(12) },
    { description: 'comprehension out of 12 over both passages; informational only' },
  ),
);

/** Spec `MeasureItemReview`: never question text or the correct option. */
export const MeasureItemReviewSchema = Type.Object({
  position: Type.Integer({ minimum: 1 }),
  measureCode: Type.String(),
  pattern: Type.String(),
  skill: Type.String(),
  correct: Nullable(Type.Boolean()),
  answer: Nullable(Type.String()),
});

export const DiagnosticStateResponse = Type.Object(
  {
    ...sessionStateFields,
    voided: Type.Boolean(),
    measures: Type.Optional(Type.Array(MeasureResultSchema)),
    composite: Type.Optional(MeasureCompositeSchema),
    itemReview: Type.Optional(Type.Array(MeasureItemReviewSchema)),
  },
  {
    description:
      'DiagnosticStateResponse: the student’s state; staff reaching the student also get measures, composite and itemReview',
  },
);
