import type { MasteryEventSourceKind } from './sourceKinds';

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

export interface XpReversed {
  xpTransactionId: number;
  studentId: number;
  masteryEventId: string;
  kind: 'rescind_reversal';
  amount: number;
  sessionId: string;
  ruleVersion: number;
  studentBadgeId: number;
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
  overrideCode: string;
  actorUserId: number;
  compensatingXpTransactionId: number;
  rescindedAt: string;
}

export interface GamificationNotice {
  studentId: number;
  masteryEventId: string;
  value: number;
}
