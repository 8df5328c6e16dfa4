import { SCREENING_WINDOWS } from '@qiraa/assessment';
import { type Static, Type } from 'typebox';
import { HOLD_REASONS } from '../engine/skillStatusTypes';
import { REPLAY_FIELDS } from '../replay/compareDecisions';
import { STATUS_TOKENS } from '../rules/ruleSet';
import { MonitoringReplaySchema } from './monitoringSchemas';
import { ProfilesReplaySchema } from './profileSchemas';
import { SafeStopCodeSchema } from './safeStopCode';

const literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));
const nullable = <T extends ReturnType<typeof Type.Unsafe> | ReturnType<typeof Type.String>>(
  schema: T,
  description: string,
) => Type.Union([schema, Type.Null()], { description });

export const security = [{ bearerAuth: [] }];

const Token = literals(STATUS_TOKENS);
const Window = literals(SCREENING_WINDOWS, { description: 'screening window' });
const AcademicYear = Type.String({ pattern: '^[0-9]{4}-[0-9]{4}$', description: 'YYYY-YYYY' });

export const StudentIdParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'the student (user id)' }) });

export const SkillStatusQuery = Type.Object(
  {
    window: Type.Optional(Window),
    academicYear: Type.Optional(AcademicYear),
  },
  { additionalProperties: false },
);
export type SkillStatusQuery = Static<typeof SkillStatusQuery>;

export const EvidenceSummarySchema = Type.Object(
  {
    items: Type.Object({
      answered: Type.Integer({ minimum: 0, description: 'digital questions of the sub-skill answered (pooled)' }),
      correct: Type.Integer({ minimum: 0 }),
      percent: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]),
      token: nullable(Token, 'SSR-01 on the items; null below the minimum number of items'),
    }),
    measures: Type.Array(
      Type.Object({
        sessionId: Type.String({ format: 'uuid' }),
        measureCode: Type.String(),
        raw: Type.Integer({ minimum: 0 }),
        max: Type.Integer({ minimum: 0 }),
        level: Type.Union([Type.Integer({ minimum: 1, maximum: 4 }), Type.Null()]),
        complete: Type.Boolean(),
        provisional: Type.Boolean(),
      }),
      { description: 'the measures the sub-skill’s questions belong to, per sitting' },
    ),
    reads: Type.Array(
      Type.Object({
        attemptId: Type.String({ format: 'uuid' }),
        cell: Type.String(),
        at: Type.String({ format: 'date-time' }),
        wcpm: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
        accuracy: Type.Integer({ minimum: 0, maximum: 100 }),
        band: nullable(Token, 'null when the read was not banded'),
        provisional: Type.Boolean(),
      }),
      { description: 'oral readings and word-list reads of the sub-skill’s cell, oldest first' },
    ),
    oralToken: nullable(Token, 'SSR-02 on the banded reads'),
    voidedAttempts: Type.Integer({ minimum: 0 }),
    provisional: Type.Boolean({ description: 'some evidence was scored with a cut table still being normed' }),
  },
  { description: 'the evidence the rules looked at' },
);

export const SkillStatusRowSchema = Type.Object({
  subSkillId: Type.String(),
  subSkillLabelAr: Type.String(),
  skillId: Type.Union([Type.String(), Type.Null()]),
  window: Window,
  academicYear: AcademicYear,
  status: nullable(Token, 'beginning | developing | on_track | strong (weakest first); null on a safe stop'),
  safeStop: nullable(
    literals(['do_not_decide_yet'] as const),
    'do_not_decide_yet when doNotDecideYet (200, not an error)',
  ),
  code: SafeStopCodeSchema('when doNotDecideYet'),
  holdReason: nullable(
    literals(HOLD_REASONS),
    'why the safe stop: insufficient_evidence | split_evidence | not_assessed',
  ),
  adrRuleId: nullable(Type.String(), 'the adequacy rule that judged the evidence; null only on the no-evidence row'),
  ssrRuleId: nullable(Type.String(), 'the status rule that set the status (SSR-04: split); null when none ran'),
  doNotDecideYet: Type.Boolean(),
  ruleSetVersion: Type.String(),
  decisionId: Type.String({ format: 'uuid' }),
  decidedAt: Type.String({ format: 'date-time' }),
  evidence: EvidenceSummarySchema,
});

export const SkillStatusResponse = Type.Object({
  studentId: Type.Integer(),
  academicYear: Type.Union([AcademicYear, Type.Null()], { description: 'null when nothing is decided yet' }),
  window: Type.Union([Window, Type.Null()], { description: 'the window the rows are of; null when none' }),
  windows: Type.Array(Type.Object({ academicYear: AcademicYear, window: Window }), {
    description: 'every window with decisions, newest first',
  }),
  rows: Type.Array(SkillStatusRowSchema),
});
export type SkillStatusResponse = Static<typeof SkillStatusResponse>;

const ReplayedDecisionSchema = Type.Object({
  status: nullable(Token, 'null exactly on a safe stop'),
  adrRuleId: nullable(Type.String(), 'the adequacy rule'),
  ssrRuleId: nullable(Type.String(), 'the status rule'),
  doNotDecideYet: Type.Boolean(),
  holdReason: nullable(literals(HOLD_REASONS), 'why the safe stop'),
  ruleSetVersion: Type.String(),
  evidenceEventIds: Type.Array(Type.String({ format: 'uuid' })),
  voidEventIds: Type.Array(Type.String({ format: 'uuid' })),
  evidence: EvidenceSummarySchema,
  decisionId: Type.String({ format: 'uuid' }),
});

export const DecisionReplayKey = Type.Object({
  academicYear: AcademicYear,
  window: Window,
  subSkillId: Type.String(),
  derived: Type.Union([ReplayedDecisionSchema, Type.Null()], {
    description:
      'the engine on the evidence streams with the rule-set version the key’s decision pinned; null when it decides none',
  }),
  stored: Type.Union([ReplayedDecisionSchema, Type.Null()], {
    description: 'the dec_skill_status row; null when none',
  }),
  drift: Type.Array(literals(REPLAY_FIELDS), {
    description: 'the fields that differ ([] when none; every field when one side is missing)',
  }),
});

export const DecisionReplayResponse = Type.Object({
  studentId: Type.Integer(),
  keys: Type.Array(DecisionReplayKey, { description: 'one per (academicYear, window, subSkillId), oldest first' }),
  monitoring: MonitoringReplaySchema,
  profiles: ProfilesReplaySchema,
  hasDrift: Type.Boolean(),
});
