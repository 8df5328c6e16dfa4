import type { ScreeningWindow } from '@qiraa/assessment';
import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import type { RecordedEvent } from '@qiraa/eventstore';
import { profileCatalogOf, profileDecisionIdOf, profilesOf, recommendationIdOf } from '../commands/profileStep';
import type { WindowStatus } from '../engine/decideProfiles';
import { decisionEvents as typedDecisionEvents } from '../events';
import { PROFILE_RESOLVED } from '../events/profileEvents';
import { CURRENT_RULE_SET, RULE_SETS } from '../rules/ruleSet';
import { canonical } from './compareDecisions';

/** The fields of a profile a replay re-derives and compares (decidedAt is a clock, not derived). */
export const PROFILE_REPLAY_FIELDS = [
  'profileCode',
  'profileName',
  'doNotDecideYet',
  'groups',
  'domains',
  'missingDomains',
  'ruleSetVersion',
  'skillStatusDecisionIds',
  'profileDecisionId',
] as const;
export const RECOMMENDATION_REPLAY_FIELDS = [
  'outcome',
  'ruleId',
  'profileCode',
  'bundleId',
  'anchorSkillGroup',
  'anchorSkillId',
  'scaffoldTier',
  'sufficientData',
  'nextDataAction',
  'nextDataSteps',
  'ruleSetVersion',
  'recommendationId',
  'profileDecisionId',
] as const;
export type ProfileReplayField = (typeof PROFILE_REPLAY_FIELDS)[number];
export type RecommendationReplayField = (typeof RECOMMENDATION_REPLAY_FIELDS)[number];

export interface WindowReplay<F extends string> {
  academicYear: string;
  window: ScreeningWindow;
  derived: Record<string, unknown> | null;
  stored: Record<string, unknown> | null;
  drift: F[];
}
export interface ProfilesReplay {
  profiles: WindowReplay<ProfileReplayField>[];
  recommendations: WindowReplay<RecommendationReplayField>[];
}

const pick = <F extends string>(fields: readonly F[], o: Record<string, unknown>) =>
  Object.fromEntries(fields.map((f) => [f, JSON.parse(JSON.stringify(o[f] ?? null))]));
function driftOf<F extends string>(
  fields: readonly F[],
  a: Record<string, unknown> | null,
  b: Record<string, unknown> | null,
): F[] {
  if (!a || !b) return a === b ? [] : [...fields];
  return fields.filter((f) => canonical(a[f]) !== canonical(b[f]));
}

const WINDOW_ORDER = ['BOY', 'MOY', 'EOY'];
const keyOf = (k: { academicYear: string; window: string }) => `${k.academicYear}|${k.window}`;

/**
 * Profiles' part of a student's decision replay: the profile and recommendation of every window, derived again
 * from the replay's derived skill statuses (each window with the rule-set version its latest `ProfileResolved`
 * pinned, else the current one), compared with `dec_profiles` and `dec_recommendations`.
 */
export async function replayProfiles(
  sql: Sql,
  studentId: number,
  derivedStatuses: readonly WindowStatus[],
  decisionEvents: readonly RecordedEvent[],
): Promise<ProfilesReplay> {
  const [catalog, profileRows, recommendationRows] = await Promise.all([
    loadCatalog(sql),
    sql<Record<string, unknown>[]>`
      select academic_year as "academicYear", evidence_window as "window", profile_code as "profileCode",
             profile_name as "profileName", do_not_decide_yet as "doNotDecideYet", groups, domains,
             missing_domains as "missingDomains", rule_set_version as "ruleSetVersion",
             skill_status_decision_ids::text[] as "skillStatusDecisionIds", profile_decision_id::text as "profileDecisionId"
      from dec_profiles where student_id = ${studentId}`,
    sql<Record<string, unknown>[]>`
      select academic_year as "academicYear", evidence_window as "window", outcome, rule_id as "ruleId",
             profile_code as "profileCode", bundle_id as "bundleId", anchor_skill_group as "anchorSkillGroup",
             anchor_skill_id as "anchorSkillId", scaffold_tier as "scaffoldTier", sufficient_data as "sufficientData",
             next_data_action as "nextDataAction", next_data_steps as "nextDataSteps",
             rule_set_version as "ruleSetVersion", recommendation_id::text as "recommendationId",
             profile_decision_id::text as "profileDecisionId"
      from dec_recommendations where student_id = ${studentId}`,
  ]);
  const pinned = new Map<string, string>();
  for (const e of typedDecisionEvents(decisionEvents)) {
    if (e.type === PROFILE_RESOLVED) pinned.set(keyOf(e.data), e.data.ruleSetVersion);
  }
  const profileCatalog = profileCatalogOf(catalog);
  const derivedProfiles = new Map<string, Record<string, unknown>>();
  const derivedRecommendations = new Map<string, Record<string, unknown>>();
  const keys = new Map<string, { academicYear: string; window: ScreeningWindow }>();
  for (const version of new Set([CURRENT_RULE_SET.version, ...pinned.values()])) {
    const rules = RULE_SETS.get(version);
    if (!rules) continue; // a version no longer published derives nothing: its windows drift loudly
    for (const { profile, recommendation } of profilesOf(derivedStatuses, profileCatalog, rules)) {
      const k = keyOf(profile);
      keys.set(k, profile);
      if ((pinned.get(k) ?? CURRENT_RULE_SET.version) !== version) continue;
      const profileDecisionId = profileDecisionIdOf(studentId, profile);
      derivedProfiles.set(k, pick(PROFILE_REPLAY_FIELDS, { ...profile, profileDecisionId }));
      derivedRecommendations.set(
        k,
        pick(RECOMMENDATION_REPLAY_FIELDS, {
          ...recommendation,
          profileDecisionId,
          recommendationId: recommendationIdOf(profileDecisionId, recommendation),
        }),
      );
    }
  }
  for (const r of [...profileRows, ...recommendationRows]) {
    keys.set(
      keyOf(r as { academicYear: string; window: string }),
      r as { academicYear: string; window: ScreeningWindow },
    );
  }
  const ordered = [...keys.entries()].sort(
    ([, a], [, b]) =>
      a.academicYear.localeCompare(b.academicYear) || WINDOW_ORDER.indexOf(a.window) - WINDOW_ORDER.indexOf(b.window),
  );
  const storedOf = (rows: Record<string, unknown>[], fields: readonly string[], k: string) => {
    const row = rows.find((r) => keyOf(r as { academicYear: string; window: string }) === k);
    return row ? pick(fields, row) : null;
  };
  return {
    profiles: ordered.map(([k, { academicYear, window }]) => {
      const derived = derivedProfiles.get(k) ?? null;
      const stored = storedOf(profileRows, PROFILE_REPLAY_FIELDS, k);
      return { academicYear, window, derived, stored, drift: driftOf(PROFILE_REPLAY_FIELDS, derived, stored) };
    }),
    recommendations: ordered.map(([k, { academicYear, window }]) => {
      const derived = derivedRecommendations.get(k) ?? null;
      const stored = storedOf(recommendationRows, RECOMMENDATION_REPLAY_FIELDS, k);
      return { academicYear, window, derived, stored, drift: driftOf(RECOMMENDATION_REPLAY_FIELDS, derived, stored) };
    }),
  };
}

export const profilesHaveDrift = (p: ProfilesReplay) =>
  p.profiles.some((x) => x.drift.length > 0) || p.recommendations.some((x) => x.drift.length > 0);
