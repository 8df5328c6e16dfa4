import { type EventShape, eventsAs, type RecordedEvent } from '@qiraa/eventstore';
import type { MasteryEventSourceKind } from './codes';

/** Stream names, one of each per student. All append-only. */
export const streams = {
  mastery: (studentId: number) => `mastery-${studentId}`,
  xp: (studentId: number) => `xp-${studentId}`,
  badgeAwards: (studentId: number) => `badgeaward-${studentId}`,
  badgeRescinds: (studentId: number) => `badgerescind-${studentId}`,
  notices: (studentId: number) => `gamnotice-${studentId}`,
};

export const MASTERY_EVENT_RECORDED = 'MasteryEventRecorded';
export const XP_CREDITED = 'XpCredited';
export const XP_REVERSED = 'XpReversed';
export const MASTERY_EVENT_REVERSED = 'MasteryEventReversed';
export const BADGE_AWARDED = 'BadgeAwarded';
export const BADGE_RESCINDED = 'BadgeRescinded';
export const AVATAR_TIER_ADVANCED = 'AvatarTierAdvanced';
export const STREAK_MILESTONE_REACHED = 'StreakMilestoneReached';

export interface MasteryEventRecorded {
  masteryEventId: string;
  studentId: number;
  organizationId: string;
  sourceKind: MasteryEventSourceKind;
  skillId: string | null;
  measureCode: string | null;
  schoolDay: string;
  sessionId: string;
  engineEventId: string;
  occurredAt: string;
  /** The rule set that decided what this event earned. */
  ruleVersion: number;
}

export interface XpCredited {
  xpTransactionId: number;
  studentId: number;
  masteryEventId: string;
  kind: 'mastery_credit' | 'badge_bonus';
  amount: number;
  sessionId: string;
  ruleVersion: number;
  studentBadgeId: number | null;
}

/** Why a compensating entry was appended without a teacher's override: the evidence was voided. */
export type ReversalReason = 'evidence_voided';

export interface XpReversed {
  xpTransactionId: number;
  studentId: number;
  masteryEventId: string;
  /** `rescind_reversal`: a badge's bonus; `void_reversal`: what a reversed mastery event earned. */
  kind: 'rescind_reversal' | 'void_reversal';
  amount: number;
  sessionId: string;
  ruleVersion: number;
  /** The rescinded badge; null on a void reversal that rescinds none. */
  studentBadgeId: number | null;
  reason?: ReversalReason;
}

/**
 * A compensating entry on `mastery-<id>`: the mastery event no longer counts (tier, badges, streak day,
 * boards). Its metadata's causationId is the void event's id.
 */
export interface MasteryEventReversed {
  masteryEventId: string;
  studentId: number;
  sourceKind: MasteryEventSourceKind;
  schoolDay: string;
  sessionId: string;
  reason: ReversalReason;
  causeEventId: string;
  reversedAt: string;
}

export interface BadgeAwarded {
  studentBadgeId: number;
  studentId: number;
  code: string;
  triggeringMasteryEventId: string;
  ruleVersion: number;
  awardedAt: string;
}

export interface BadgeRescinded {
  studentBadgeId: number;
  studentId: number;
  /** null on a rescind caused by a void (no teacher, no override code). */
  overrideCode: string | null;
  actorUserId: number | null;
  /** null when a void rescinds a badge that brought no XP. */
  compensatingXpTransactionId: number | null;
  rescindedAt: string;
  reason?: ReversalReason;
}

export interface GamificationNotice {
  studentId: number;
  masteryEventId: string;
  value: number;
}

/**
 * Every event of this context's streams, typed: `type` discriminates `data` (docs/architecture.md, "Typed
 * events"). Add an event here with its constant and its data interface.
 */
export type GamificationEvent =
  | { type: typeof MASTERY_EVENT_RECORDED; data: MasteryEventRecorded }
  | { type: typeof XP_CREDITED; data: XpCredited }
  | { type: typeof XP_REVERSED; data: XpReversed }
  | { type: typeof MASTERY_EVENT_REVERSED; data: MasteryEventReversed }
  | { type: typeof BADGE_AWARDED; data: BadgeAwarded }
  | { type: typeof BADGE_RESCINDED; data: BadgeRescinded }
  | { type: typeof AVATAR_TIER_ADVANCED; data: GamificationNotice }
  | { type: typeof STREAK_MILESTONE_REACHED; data: GamificationNotice };

/** Events read from the store as this context's (the one typed boundary: `eventsAs`). */
export const gamificationEvents = <R extends EventShape = RecordedEvent>(events: readonly R[]) =>
  eventsAs<GamificationEvent, R>(events);
