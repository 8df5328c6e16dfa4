import { SCREENING_WINDOWS } from '@qiraa/assessment';
import { type Static, Type } from 'typebox';
import {
  NEXT_DATA_ACTIONS,
  PROFILE_CODES,
  PROFILE_NAMES,
  RECOMMENDATION_OUTCOMES,
  SCAFFOLD_TIERS,
} from '../engine/profileTypes';
import { HOLD_REASONS } from '../engine/skillStatusTypes';
import { STATUS_TOKENS } from '../rules/ruleSet';
import { SafeStopCodeSchema } from './safeStopCode';

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...(description ? { description } : {}) }));
const AcademicYear = Type.String({ pattern: '^[0-9]{4}-[0-9]{4}$', description: 'YYYY-YYYY' });
const Window = literals(SCREENING_WINDOWS, 'screening window');
const Uuid = Type.String({ format: 'uuid' });
const Need = Type.Union([literals(['secure', 'support']), Type.Null()]);

export const ProfileQuery = Type.Object(
  { window: Type.Optional(Window), academicYear: Type.Optional(AcademicYear) },
  { additionalProperties: false },
);
export type ProfileQuery = Static<typeof ProfileQuery>;

const DomainStatusSchema = Type.Object({
  macroDomainId: Type.String(),
  status: Type.Union([literals(STATUS_TOKENS), Type.Null()], { description: 'null exactly when held (PR1-09)' }),
  ruleId: Type.String({ description: 'PR1-01 (lowest sub-skill status) or PR1-09 (a sub-skill held)' }),
  subSkillIds: Type.Array(Type.String()),
  weakestSubSkillId: Type.Union([Type.String(), Type.Null()]),
  held: Type.Array(Type.Object({ subSkillId: Type.String(), holdReason: literals(HOLD_REASONS) })),
});

export const ProfileViewSchema = Type.Object({
  academicYear: AcademicYear,
  window: Window,
  profileCode: literals(PROFILE_CODES, 'the profile code, its own rule id (PR2-00 is the guard)'),
  profileName: literals(PROFILE_NAMES),
  safeStop: Type.Union([Type.Literal('DATA_INCOMPLETE'), Type.Null()], {
    description: 'DATA_INCOMPLETE (PR2-00): a 200 safe stop; the student is left out of clustering',
  }),
  doNotDecideYet: Type.Boolean(),
  code: SafeStopCodeSchema('when doNotDecideYet (the guard PR2-00)'),
  groups: Type.Object({ word_level: Need, meaning: Need }),
  domains: Type.Array(DomainStatusSchema, { description: 'every macro-domain the window’s statuses cover' }),
  missingDomains: Type.Array(Type.String(), { description: 'anchor domains with no status row in the window' }),
  ruleSetVersion: Type.String(),
  skillStatusDecisionIds: Type.Array(Uuid),
  profileDecisionId: Uuid,
  decidedAt: Type.String({ format: 'date-time' }),
});
export type ProfileView = Static<typeof ProfileViewSchema>;

const NextDataStepSchema = Type.Object({
  action: literals(NEXT_DATA_ACTIONS),
  macroDomainId: Type.String(),
  subSkillIds: Type.Array(Type.String()),
  reason: literals([...HOLD_REASONS, 'missing']),
});

export const RecommendationViewSchema = Type.Object({
  academicYear: AcademicYear,
  window: Window,
  outcome: literals(RECOMMENDATION_OUTCOMES),
  code: SafeStopCodeSchema('on blocked_insufficient_evidence (BRR-09, the guard profile’s safe stop)'),
  ruleId: Type.String({ description: 'BRR-01 (a bundle), BRR-08 (none in the catalog), BRR-09 (blocked)' }),
  profileCode: literals(PROFILE_CODES),
  bundleId: Type.Union([Type.String(), Type.Null()]),
  bundleLabelAr: Type.Union([Type.String(), Type.Null()]),
  steps: Type.Array(
    Type.Object({ ordinal: Type.Integer(), stepCode: Type.String(), labelAr: Type.String(), skillId: Type.String() }),
    { description: 'the bundle’s steps (content catalog); [] when no bundle' },
  ),
  anchorSkillGroup: Type.Union([Type.String(), Type.Null()], { description: 'the anchor macro-domain' }),
  anchorSkillId: Type.Union([Type.String(), Type.Null()]),
  scaffoldTier: Type.Union([literals(SCAFFOLD_TIERS), Type.Null()]),
  sufficientData: Type.Boolean(),
  nextDataAction: Type.Union([NextDataStepSchema, Type.Null()], {
    description: 'blocked_insufficient_evidence: the first step to take; else null',
  }),
  nextDataSteps: Type.Array(NextDataStepSchema),
  ruleSetVersion: Type.String(),
  recommendationId: Uuid,
  profileDecisionId: Uuid,
  decidedAt: Type.String({ format: 'date-time' }),
});
export type RecommendationView = Static<typeof RecommendationViewSchema>;

const Windows = Type.Array(Type.Object({ academicYear: AcademicYear, window: Window }), {
  description: 'every window with a profile, newest first',
});

export const ProfileResponse = Type.Object({
  studentId: Type.Integer(),
  academicYear: Type.Union([AcademicYear, Type.Null()]),
  window: Type.Union([Window, Type.Null()]),
  windows: Windows,
  profile: Type.Union([ProfileViewSchema, Type.Null()], { description: 'null: nothing decided for the window yet' }),
});
export type ProfileResponse = Static<typeof ProfileResponse>;

export const RecommendationResponse = Type.Object({
  studentId: Type.Integer(),
  academicYear: Type.Union([AcademicYear, Type.Null()]),
  window: Type.Union([Window, Type.Null()]),
  windows: Windows,
  recommendation: Type.Union([RecommendationViewSchema, Type.Null()], {
    description: 'null: nothing decided for the window yet',
  }),
});
export type RecommendationResponse = Static<typeof RecommendationResponse>;

const WindowReplaySchema = Type.Object({
  academicYear: Type.String(),
  window: Window,
  derived: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: 'derived again from the replay’s skill statuses with the pinned rule-set version; null when none',
  }),
  stored: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: 'the read-model row; null when none',
  }),
  drift: Type.Array(Type.String(), { description: 'the fields that differ' }),
});

export const ProfilesReplaySchema = Type.Object(
  { profiles: Type.Array(WindowReplaySchema), recommendations: Type.Array(WindowReplaySchema) },
  {
    description:
      'profiles and bundle recommendations per window, derived and stored (dec_profiles, dec_recommendations)',
  },
);
