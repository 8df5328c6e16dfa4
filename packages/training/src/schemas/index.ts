import { BigintId } from '@qiraa/http-kit';
import { type TSchema, Type } from 'typebox';

export const security = [{ bearerAuth: [] }];

const literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const SchoolDayString = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const LevelNumber = Type.Integer({ minimum: 1, maximum: 4 });
const EndReason = Nullable(literals(['done', 'cap', 'window_closed']));

/** The item in the student projection (content's StudentItem): never the pattern, level or correct option. */
const StudentItemSchema = Type.Object({
  id: Type.String(),
  version: Type.Integer(),
  stemAr: Type.String(),
  options: Type.Array(Type.Object({ key: Type.String(), textAr: Type.String() })),
  passageId: Nullable(Type.String()),
});

export const StudentIdParams = Type.Object({ studentId: BigintId });
export const DayParams = Type.Object({
  studentId: BigintId,
  trainingSessionId: Type.String({ format: 'uuid', description: 'the training day id' }),
});

export const TrainingLevelsResponse = Type.Object({
  studentId: Type.Integer(),
  academicYear: Type.String({
    pattern: '^[0-9]{4}-[0-9]{4}$',
    description: 'the year of the levels; with no level yet, the current academic year (turns on 1 August)',
  }),
  levels: Type.Array(
    Type.Object({
      skillId: Type.String(),
      skillLabelAr: Type.String(),
      measureCode: Nullable(Type.String()),
      level: Type.Object({ number: LevelNumber, nameAr: Type.String() }),
      since: SchoolDayString,
      startedFrom: literals(['screen', 'experience_type', 'backtrack']),
      lastMove: Nullable(
        Type.Object({
          direction: literals(['up', 'down', 'rebaseline']),
          at: Type.String({ format: 'date-time' }),
          fromLevel: LevelNumber,
        }),
      ),
      openAlerts: Type.Array(
        Type.Object({
          alertId: Type.String(),
          kind: literals(['no_progress_at_level', 'support_review_suggested']),
          acknowledged: Type.Boolean(),
        }),
      ),
    }),
  ),
});

const TargetLabel = {
  skillId: Type.String(),
  skillLabelAr: Type.String(),
  levelNumber: LevelNumber,
  levelNameAr: Type.String(),
};

export const TrainingDaysResponse = Type.Object({
  studentId: Type.Integer(),
  sessions: Type.Array(
    Type.Object({
      id: Type.String(),
      date: SchoolDayString,
      timeZone: Type.String(),
      leveled: Type.Boolean(),
      ended: Type.Boolean(),
      endReason: EndReason,
      counted: Type.Integer(),
      correct: Type.Integer(),
      targets: Nullable(Type.Array(Type.Object(TargetLabel))),
      supportSteps: Nullable(Type.Integer({ description: 'support steps fired that day' })),
      exitDone: Nullable(Type.Boolean()),
      answeredCount: Nullable(Type.Integer()),
    }),
  ),
});

export const TrainingDayResponse = Type.Object({
  id: Type.String(),
  date: SchoolDayString,
  timeZone: Type.String(),
  leveled: Type.Boolean(),
  plannedExercises: Type.Integer(),
  questionsPerExercise: Type.Integer(),
  counted: Type.Integer(),
  correct: Type.Integer(),
  targets: Type.Array(
    Type.Object({
      ...TargetLabel,
      questionsAnswered: Type.Integer(),
      firstTryCorrect: Type.Integer(),
      secondTries: Type.Integer(),
      hintedAnswers: Type.Integer(),
      supportAnswers: Type.Integer(),
    }),
  ),
  supportSteps: Type.Array(
    Type.Object({
      id: Type.String(),
      target: Type.String({ description: 'the target skill the step bridges to' }),
      level: LevelNumber,
      supportSkills: Type.Array(Type.String()),
      firedAt: Type.String({ format: 'date-time' }),
      answered: Type.Integer(),
      correct: Type.Integer(),
    }),
  ),
  exit: Nullable(Type.Object({ planned: Type.Integer(), answered: Type.Integer(), correct: Type.Integer() })),
  ended: Type.Boolean(),
  endReason: EndReason,
  feedback: Nullable(Type.String()),
  feedbackAt: Nullable(Type.String({ format: 'date-time' })),
});

/** The practice queue's state in every student response: never a level, pattern, rule or support skill. */
export const TrainingStateSchema = Type.Object({
  phase: literals(['session', 'practice', 'exit', 'done'], {
    description: '`session`: an online session’s items, served before the day’s levelled training',
  }),
  exit: Type.Object({ planned: Type.Integer(), done: Type.Integer() }),
  endReason: EndReason,
  progress: Type.Object({ answered: Type.Integer(), planned: Type.Integer() }),
});

const StepSchema = Type.Object({
  kind: literals(['target', 'bridge', 'exit']),
  startsBridge: Type.Boolean(),
  strategyPromptAr: Nullable(Type.String()),
});

export const NextItemResponse = Type.Object({
  trainingSessionId: Nullable(Type.String()),
  sessionId: Nullable(Type.String({ description: 'the online session being served (phase `session`), else null' })),
  served: Nullable(
    Type.Object({
      item: StudentItemSchema,
      step: StepSchema,
      attempt: Type.Integer({ minimum: 1, maximum: 2 }),
      hintAr: Nullable(Type.String({ description: 'the item’s hint, shown when the child asks for it' })),
    }),
  ),
  reason: Nullable(literals(['no_eligible_item', 'day_ended'])),
  training: TrainingStateSchema,
});

export const SubmitBody = Type.Object(
  {
    itemId: Type.String({ minLength: 1, maxLength: 100 }),
    selectedOptionKey: Type.String({ minLength: 1, maxLength: 20 }),
    hintUsed: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SubmitResponse = Type.Object({
  trainingSessionId: Nullable(Type.String({ description: 'the training day; null for a session answer' })),
  sessionId: Nullable(Type.String({ description: 'the online session being served (phase `session`), else null' })),
  correct: Type.Boolean(),
  attempt: Type.Integer({ minimum: 1, maximum: 2 }),
  hint: Nullable(
    Type.Object({ kind: literals(['item', 'light_hint', 'clearer_hint', 'generic']), textAr: Type.String() }),
  ),
  explanation: Nullable(Type.Object({ textAr: Type.String() })),
  next: literals(['retry', 'next_item', 'done']),
  training: TrainingStateSchema,
});

export const QueueStateResponse = Type.Object({
  trainingSessionId: Nullable(Type.String()),
  sessionId: Nullable(Type.String({ description: 'the online session being served (phase `session`), else null' })),
  date: Nullable(SchoolDayString),
  training: TrainingStateSchema,
});
