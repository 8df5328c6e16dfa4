import type { ScreeningWindow } from '@qiraa/assessment';
import type { MasteryRuleKind, StatusToken } from '../rules/ruleSet';
import type { HoldReason } from './skillStatusTypes';

/**
 * Profile codes (docs/decisions-profiles.md): a closed set, each code its own rule id `PR2-nn` (the notification
 * payloads carry the code, `^PR[0-9]-[0-9]{2}$`). Asset-framed: a child has a "focus", never a deficit.
 */
export const PROFILE_CODES = ['PR2-00', 'PR2-01', 'PR2-02', 'PR2-03', 'PR2-04'] as const;
export type ProfileCode = (typeof PROFILE_CODES)[number];
export const PROFILE_NAMES = [
  'DATA_INCOMPLETE',
  'ON_TRACK',
  'WORD_LEVEL_FOCUS',
  'MEANING_FOCUS',
  'BROAD_FOCUS',
] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];
/** The guard profile: evidence of an anchor domain is missing or held; clusters and bulk activation skip it. */
export const DATA_INCOMPLETE: ProfileCode = 'PR2-00';

/** The two anchor groups a profile is read from (Simple View of Reading: word reading × language comprehension). */
export const ANCHOR_GROUPS = ['word_level', 'meaning'] as const;
export type AnchorGroup = (typeof ANCHOR_GROUPS)[number];
export type GroupNeed = 'secure' | 'support';

/** One macro-domain's status in a window (PR1-01), or held (PR1-09). */
export interface DomainStatus {
  macroDomainId: string;
  /** null exactly when held. */
  status: StatusToken | null;
  ruleId: string;
  /** The sub-skills of the domain the window decided (or held), catalog order. */
  subSkillIds: string[];
  /** The first sub-skill (catalog order) at the domain's status; null when held. */
  weakestSubSkillId: string | null;
  /** The held sub-skills and why (PR1-09); [] when the domain is decided. */
  held: { subSkillId: string; holdReason: HoldReason }[];
}

/** An anchor domain with no skill-status row in the window at all (no attempt covered it). */
export interface MissingDomain {
  macroDomainId: string;
}

export interface ProfileKey {
  academicYear: string;
  window: ScreeningWindow;
}

/** One profile decision: a student's profile of one window, from the window's skill statuses. */
export interface ProfileDecision extends ProfileKey {
  profileCode: ProfileCode;
  profileName: ProfileName;
  /** The guard: `DATA_INCOMPLETE` exactly when `profileCode` is PR2-00. */
  safeStop: 'DATA_INCOMPLETE' | null;
  doNotDecideYet: boolean;
  /** Per anchor group: secure, support, or null when the group is incomplete. */
  groups: Record<AnchorGroup, GroupNeed | null>;
  /** Every macro-domain the window's statuses cover, catalog order. */
  domains: DomainStatus[];
  /** Anchor domains the window has no status row for. */
  missingDomains: string[];
  ruleSetVersion: string;
  /** The skill-status decision ids of the window the profile read, sorted (the profile's evidence). */
  skillStatusDecisionIds: string[];
}

export const RECOMMENDATION_OUTCOMES = ['recommended', 'blocked_insufficient_evidence', 'no_catalog_bundle'] as const;
export type RecommendationOutcome = (typeof RECOMMENDATION_OUTCOMES)[number];
/** The spec's tier names (cluster student preview). */
export const SCAFFOLD_TIERS = ['Level_1', 'Level_2', 'Level_3'] as const;
export type ScaffoldTier = (typeof SCAFFOLD_TIERS)[number];
/** What to collect next when a recommendation is blocked (closed codes). */
export const NEXT_DATA_ACTIONS = ['screening_sitting', 're_diagnostic_sitting', 'oral_reading_probe'] as const;
export type NextDataAction = (typeof NEXT_DATA_ACTIONS)[number];

export interface NextDataStep {
  action: NextDataAction;
  /** The anchor domain the step completes. */
  macroDomainId: string;
  /** The sub-skills the step re-assesses ([] for a domain nothing covered yet). */
  subSkillIds: string[];
  /** Why: a hold reason of the sub-skills, or `missing` (no row at all). */
  reason: HoldReason | 'missing';
}

/** A support bundle of the content catalog, as the recommendation rule reads it. */
export interface SupportBundle {
  id: string;
  labelAr: string;
  profileCode: string;
  anchorMacroDomainId: string;
  gradeMin: number;
  gradeMax: number;
  steps: { ordinal: number; stepCode: string; labelAr: string; skillId: string }[];
}

/** The bundle recommendation of a profile: a bundle (BRR-01), blocked (BRR-09) or none in the catalog (BRR-08). */
export interface RecommendationDecision extends ProfileKey {
  outcome: RecommendationOutcome;
  ruleId: string;
  profileCode: ProfileCode;
  bundleId: string | null;
  /** The cluster dimension: the anchor macro-domain the bundle starts from. */
  anchorSkillGroup: string | null;
  /** The skill of the anchor domain's weakest sub-skill (catalog order on a tie): the teacher's alert names it. */
  anchorSkillId: string | null;
  scaffoldTier: ScaffoldTier | null;
  /** The cluster dimension: false exactly when blocked. */
  sufficientData: boolean;
  /** Blocked: the first step to take (catalog order); else null. */
  nextDataAction: NextDataStep | null;
  /** Blocked: every step that would unblock it. */
  nextDataSteps: NextDataStep[];
  ruleSetVersion: string;
}

/** MER-04 on a profile decision: the domains whose status rose. */
export interface DomainMasteryCredit {
  ruleId: string;
  sourceKind: MasteryRuleKind;
  domains: { macroDomainId: string; from: StatusToken; to: StatusToken }[];
}
