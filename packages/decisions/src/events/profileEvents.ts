import type { DomainMasteryCredit, ProfileCode, ProfileDecision, RecommendationDecision } from '../engine/profileTypes';

/**
 * Profiles' events, on the student's decision stream `decision-<studentId>` beside the skill statuses
 * (docs/decisions-profiles.md). Ids are deterministic: a recompute of unchanged statuses appends nothing.
 */
export const PROFILE_RESOLVED = 'ProfileResolved';
/** A bundle recommendation (BRR-01), or none in the catalog (BRR-08). */
export const BUNDLE_RECOMMENDED = 'BundleRecommended';
/** BRR-09: `blocked_insufficient_evidence`, naming the next data action. */
export const BUNDLE_BLOCKED = 'BundleBlocked';
export const RECOMMENDATION_EVENT_TYPES = [BUNDLE_RECOMMENDED, BUNDLE_BLOCKED] as const;
export const PROFILE_EVENT_TYPES = [PROFILE_RESOLVED, ...RECOMMENDATION_EVENT_TYPES] as const;

export interface ProfileResolved extends ProfileDecision {
  /** Deterministic: student, window, rule-set version and the window's skill-status decision ids. MER-04's engine event id. */
  profileDecisionId: string;
  studentId: number;
  organizationId: string | null;
  supersedesProfileDecisionId: string | null;
  /** The student's latest decided (non-guard) profile code before this one, any window; null when none. */
  previousProfileCode: ProfileCode | null;
  decidedAt: string;
  /** MER-04 when a domain's status rose, else null. */
  mastery: DomainMasteryCredit | null;
}

export interface BundleRecommendationDecided extends RecommendationDecision {
  /** Deterministic: the profile decision and what was recommended of it. */
  recommendationId: string;
  profileDecisionId: string;
  studentId: number;
  organizationId: string | null;
  supersedesRecommendationId: string | null;
  /** The bundle the window's previous recommendation named (null when none or blocked). */
  previousBundleId: string | null;
  decidedAt: string;
}

export type ProfileEvent = ProfileResolved | BundleRecommendationDecided;
