import { evidenceOf, type ScreeningWindow } from '@qiraa/assessment';
import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { evaluateEngineRules } from '@qiraa/http-kit';
import { keyOf } from '../commands/decisionStream';
import { decisionIdOf } from '../commands/recomputeSkillStatus';
import type { WindowStatus } from '../engine/decideProfiles';
import { decideSkillStatuses } from '../engine/decideSkillStatuses';
import type { SkillStatusDecision } from '../engine/skillStatusTypes';
import { decisionEvents, SKILL_STATUS_DECIDED, streams } from '../events';
import { CURRENT_RULE_SET, RULE_SETS } from '../rules/ruleSet';
import { driftOf, type ReplayedDecision, type ReplayField } from './compareDecisions';
import { type MonitoringReplay, monitoringHasDrift, replayMonitoring } from './replayMonitoring';
import { type ProfilesReplay, profilesHaveDrift, replayProfiles } from './replayProfiles';

export interface KeyReplay {
  academicYear: string;
  window: ScreeningWindow;
  subSkillId: string;
  /** The engine's decision of the key with the version the stored decision pinned; null when it decides none. */
  derived: ReplayedDecision | null;
  /** The `dec_skill_status` row; null when the read model has none. */
  stored: ReplayedDecision | null;
  /** The fields that differ (every field when one side is missing). */
  drift: ReplayField[];
}

export interface DecisionReplayReport {
  studentId: number;
  keys: KeyReplay[];
  /** Progress monitoring's trends and alerts, derived and stored (docs/decisions-monitoring.md). */
  monitoring: MonitoringReplay;
  /** Profiles and bundle recommendations per window, derived and stored (docs/decisions-profiles.md). */
  profiles: ProfilesReplay;
  hasDrift: boolean;
}

interface StoredRow {
  academic_year: string;
  evidence_window: ScreeningWindow;
  sub_skill_id: string;
  status: ReplayedDecision['status'];
  adr_rule_id: string | null;
  ssr_rule_id: string | null;
  do_not_decide_yet: boolean;
  hold_reason: ReplayedDecision['holdReason'];
  rule_set_version: string;
  evidence_event_ids: string[];
  void_event_ids: string[];
  evidence: ReplayedDecision['evidence'];
  decision_id: string;
}

const replayed = (studentId: number, d: SkillStatusDecision): ReplayedDecision => ({
  status: d.status,
  adrRuleId: d.adrRuleId,
  ssrRuleId: d.ssrRuleId,
  doNotDecideYet: d.doNotDecideYet,
  holdReason: d.holdReason,
  ruleSetVersion: d.ruleSetVersion,
  evidenceEventIds: d.evidenceEventIds,
  voidEventIds: d.voidEventIds,
  // Through JSON, as the read model stores it (an undefined field is no field).
  evidence: JSON.parse(JSON.stringify(d.evidence)),
  decisionId: decisionIdOf(studentId, d),
});

const fromRow = (r: StoredRow): ReplayedDecision => ({
  status: r.status,
  adrRuleId: r.adr_rule_id,
  ssrRuleId: r.ssr_rule_id,
  doNotDecideYet: r.do_not_decide_yet,
  holdReason: r.hold_reason,
  ruleSetVersion: r.rule_set_version,
  evidenceEventIds: [...r.evidence_event_ids],
  voidEventIds: [...r.void_event_ids],
  evidence: r.evidence,
  decisionId: r.decision_id,
});

const WINDOW_ORDER = ['BOY', 'MOY', 'EOY'];

/**
 * One student's decision replay: the engine run again over the evidence streams (`evidenceOf`), each key with
 * the rule-set version its latest decision on `decision-<id>` pinned (`RULE_SETS`; a key never decided, with
 * the current version), compared field by field with `dec_skill_status`. Writes nothing. Used by
 * POST /api/admin/decisions/replay and `qiraa decisions replay`.
 */
export async function replayDecisions(
  deps: { sql: Sql; store: EventStore },
  studentId: number,
): Promise<DecisionReplayReport> {
  const [evidence, events, rows] = await Promise.all([
    evidenceOf(deps.sql, studentId, { store: deps.store, pool: deps.sql }),
    deps.store.readStream(streams.decision(studentId)).then(decisionEvents),
    deps.sql<StoredRow[]>`
      select academic_year, evidence_window, sub_skill_id, status, adr_rule_id, ssr_rule_id, do_not_decide_yet,
             hold_reason, rule_set_version, evidence_event_ids::text[] as evidence_event_ids,
             void_event_ids::text[] as void_event_ids, evidence, decision_id::text as decision_id
      from dec_skill_status where student_id = ${studentId}`,
  ]);
  // The version each key's latest decision pinned.
  const pinned = new Map<string, string>();
  for (const e of events) {
    if (e.type === SKILL_STATUS_DECIDED) pinned.set(keyOf(e.data), e.data.ruleSetVersion);
  }
  const versions = new Set([CURRENT_RULE_SET.version, ...pinned.values()]);
  const derivedBy = new Map<string, Map<string, SkillStatusDecision>>();
  for (const version of versions) {
    const rules = RULE_SETS.get(version);
    // A version no longer published derives nothing: its keys show as drift, never as a silent pass.
    const decided = rules
      ? evaluateEngineRules('decision', `decision rule set ${version}`, () => decideSkillStatuses(evidence, rules))
      : [];
    derivedBy.set(version, new Map(decided.map((d) => [keyOf(d), d])));
  }
  const keys = new Map<string, { academicYear: string; window: ScreeningWindow; subSkillId: string }>();
  for (const d of derivedBy.get(CURRENT_RULE_SET.version)!.values()) keys.set(keyOf(d), d);
  for (const e of events) if (e.type === SKILL_STATUS_DECIDED) keys.set(keyOf(e.data), e.data);
  const stored = new Map(
    rows.map((r) => [
      keyOf({ academicYear: r.academic_year, window: r.evidence_window, subSkillId: r.sub_skill_id }),
      r,
    ]),
  );
  for (const r of rows)
    keys.set(keyOf({ academicYear: r.academic_year, window: r.evidence_window, subSkillId: r.sub_skill_id }), {
      academicYear: r.academic_year,
      window: r.evidence_window,
      subSkillId: r.sub_skill_id,
    });

  const result: KeyReplay[] = [];
  const derivedStatuses: WindowStatus[] = [];
  for (const [k, key] of keys) {
    const version = pinned.get(k) ?? CURRENT_RULE_SET.version;
    const d = derivedBy.get(version)!.get(k);
    if (d) derivedStatuses.push({ decision: d, decisionId: decisionIdOf(studentId, d) });
    const derived = d ? replayed(studentId, d) : null;
    const row = stored.get(k);
    const storedDecision = row ? fromRow(row) : null;
    result.push({
      academicYear: key.academicYear,
      window: key.window,
      subSkillId: key.subSkillId,
      derived,
      stored: storedDecision,
      drift: driftOf(derived, storedDecision),
    });
  }
  result.sort(
    (a, b) =>
      a.academicYear.localeCompare(b.academicYear) ||
      WINDOW_ORDER.indexOf(a.window) - WINDOW_ORDER.indexOf(b.window) ||
      a.subSkillId.localeCompare(b.subSkillId),
  );
  const monitoring = await replayMonitoring(deps.sql, studentId, evidence, events);
  const profiles = await replayProfiles(deps.sql, studentId, derivedStatuses, events);
  const hasDrift =
    result.some((k) => k.drift.length > 0) || monitoringHasDrift(monitoring) || profilesHaveDrift(profiles);
  return { studentId, keys: result, monitoring, profiles, hasDrift };
}
