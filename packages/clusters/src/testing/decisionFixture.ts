import { randomUUID } from 'node:crypto';
import { writeStreams } from '@qiraa/command-kit';
import { inTransaction, type Sql } from '@qiraa/db';
import {
  BUNDLE_BLOCKED,
  BUNDLE_RECOMMENDED,
  type BundleRecommendationDecided,
  decisionsCommands,
  type MonitoringAlertChanged,
  PROFILE_RESOLVED,
  type ProfileCode,
  type ProfileResolved,
  REGRESSION_ALERT_RAISED,
  type ScaffoldTier,
  SKILL_STATUS_DECIDED,
  type SkillStatusDecided,
  type StatusToken,
  streams,
} from '@qiraa/decisions';
import type { EventStore } from '@qiraa/eventstore';

/**
 * Decisions' own events for a student, appended to `decision-<id>` and projected the way decisions does
 * (its command context, `decisionsCommands`): clusters' specs choose each child's profile and recommendation without
 * building the screening evidence that would lead the engine there. The adapter then reads the real
 * `profilesOfClass` / `recommendationsOfClass` / `openAcuteRegressionsOf`.
 */
export interface FixtureRecommendation {
  profileCode?: ProfileCode;
  outcome?: 'recommended' | 'blocked_insufficient_evidence';
  bundleId?: string;
  anchorSkillGroup?: string;
  scaffoldTier?: ScaffoldTier | null;
}

type Deps = { sql: Sql; store: EventStore };

export async function recommend(deps: Deps, studentId: number, organizationId: string, r: FixtureRecommendation = {}) {
  const profileCode = r.profileCode ?? 'PR2-02';
  const guard = profileCode === 'PR2-00';
  const outcome = guard ? 'blocked_insufficient_evidence' : (r.outcome ?? 'recommended');
  const profileDecisionId = randomUUID();
  const recommendationId = randomUUID();
  const decidedAt = new Date().toISOString();
  const key = { academicYear: '2026-2027', window: 'BOY' as const };
  const profile: ProfileResolved = {
    ...key,
    profileCode,
    profileName: guard ? 'DATA_INCOMPLETE' : 'WORD_LEVEL_FOCUS',
    safeStop: guard ? 'DATA_INCOMPLETE' : null,
    doNotDecideYet: guard,
    groups: { word_level: guard ? null : 'support', meaning: guard ? null : 'secure' },
    domains: [],
    missingDomains: [],
    ruleSetVersion: 'v1',
    skillStatusDecisionIds: [],
    profileDecisionId,
    studentId,
    organizationId,
    supersedesProfileDecisionId: null,
    previousProfileCode: null,
    decidedAt,
    mastery: null,
  };
  const recommended = outcome === 'recommended';
  const rec: BundleRecommendationDecided = {
    ...key,
    outcome,
    ruleId: recommended ? 'BRR-01' : 'BRR-09',
    profileCode,
    bundleId: recommended ? (r.bundleId ?? 'bnd_decoding_foundations') : null,
    anchorSkillGroup: recommended ? (r.anchorSkillGroup ?? 'decoding') : null,
    anchorSkillId: recommended ? 'letter_sounds' : null,
    scaffoldTier: recommended ? (r.scaffoldTier === undefined ? 'Level_1' : r.scaffoldTier) : null,
    sufficientData: recommended,
    nextDataAction: null,
    nextDataSteps: [],
    ruleSetVersion: 'v1',
    recommendationId,
    profileDecisionId,
    studentId,
    organizationId,
    supersedesRecommendationId: null,
    previousBundleId: null,
    decidedAt,
  };
  await inTransaction(deps.sql, async (uow) => {
    const [result] = await writeStreams(deps.store, uow, decisionsCommands, [
      {
        streamId: streams.decision(studentId),
        events: [
          { eventId: profileDecisionId, type: PROFILE_RESOLVED, data: profile },
          { eventId: recommendationId, type: recommended ? BUNDLE_RECOMMENDED : BUNDLE_BLOCKED, data: rec },
        ],
      },
    ]);
    if (result!.kind !== 'appended') throw new Error(`fixture recommendation: ${result!.kind}`);
  });
}

/** An open acute_regression alert (PMR-03's event) for the student. */
export async function openAcuteRegression(deps: Deps, studentId: number, organizationId: string): Promise<string> {
  const alertId = randomUUID();
  const data: MonitoringAlertChanged = {
    alertKind: 'acute_regression',
    academicYear: '2026-2027',
    anchorAttemptId: randomUUID(),
    ruleId: 'PMR-03',
    evidenceEventIds: [],
    detail: { wcpm: 10, predictedWcpm: 30, dropWcpm: 20 },
    alertId,
    studentId,
    organizationId,
    status: 'open',
    closeReason: null,
    transition: 0,
    ruleSetVersion: 'v1',
    changedAt: new Date().toISOString(),
  };
  await inTransaction(deps.sql, async (uow) => {
    const [result] = await writeStreams(deps.store, uow, decisionsCommands, [
      { streamId: streams.decision(studentId), events: [{ eventId: alertId, type: REGRESSION_ALERT_RAISED, data }] },
    ]);
    if (result!.kind !== 'appended') throw new Error(`fixture alert: ${result!.kind}`);
  });
  return alertId;
}

/**
 * A skill-status decision (decisions' own SkillStatusDecided) on one sub-skill, appended and projected the way
 * decisions does: what bundle progress (BPR-01) reads and its reactor wakes on. Returns the decision id.
 */
export async function decideSkillStatus(
  deps: Deps,
  studentId: number,
  organizationId: string,
  d: { subSkillId: string; status: StatusToken; decidedAt: string },
): Promise<string> {
  const decisionId = randomUUID();
  const data: SkillStatusDecided = {
    academicYear: '2026-2027',
    window: 'BOY',
    subSkillId: d.subSkillId,
    status: d.status,
    adrRuleId: 'ADR-01',
    ssrRuleId: 'SSR-01',
    doNotDecideYet: false,
    holdReason: null,
    ruleSetVersion: 'v1',
    evidenceEventIds: [],
    voidEventIds: [],
    evidence: {
      items: { answered: 0, correct: 0, percent: null, token: null },
      measures: [],
      reads: [],
      oralToken: null,
      voidedAttempts: 0,
      provisional: false,
    },
    decisionId,
    studentId,
    organizationId,
    supersedesDecisionId: null,
    decidedAt: d.decidedAt,
    mastery: null,
  };
  await inTransaction(deps.sql, async (uow) => {
    const [result] = await writeStreams(deps.store, uow, decisionsCommands, [
      { streamId: streams.decision(studentId), events: [{ eventId: decisionId, type: SKILL_STATUS_DECIDED, data }] },
    ]);
    if (result!.kind !== 'appended') throw new Error(`fixture skill status: ${result!.kind}`);
  });
  return decisionId;
}
