import { loadCatalog } from '@qiraa/content';
import type { AnySql, Sql, UnitOfWork } from '@qiraa/db';
import { skillStatusOf } from '@qiraa/decisions';
import { deterministicEventId } from '@qiraa/eventstore';
import {
  type GamificationDeps,
  type MasteryEventInput,
  type RecordResult,
  recordMasteryEvents,
} from '@qiraa/gamification';
import { type CompletedSessionResult, completedSessionResultsOf } from '@qiraa/sessions';
import { BUNDLE_PROGRESS_RULES } from '../rules/bundleProgressRules';

export interface StepGoalMet {
  bundleId: string;
  stepCode: string;
  ruleId: string;
  /** The skill-status decision that met the step (the evidence), or null when a session did. */
  triggerDecisionId: string | null;
  /** The completed online session whose answers met the step (BPR-01, v2), or null when a decision did. */
  triggerSessionId: string | null;
  subSkillId: string;
  decidedAt: string;
}

export interface BundleProgress {
  stepsMet: StepGoalMet[];
  completedBundleIds: string[];
  results: RecordResult[];
}

/**
 * The engine event ids: one per (child, bundle, step) and one per (child, bundle), so however often the
 * credit runs (every new decision, a replay, a re-activation of the same bundle in a later generation) the
 * gamification ledger stores each step and each completion once. The triggering decision is carried as the
 * mastery event's session (`bundle:<decisionId>`), so the credit names its evidence.
 */
export const stepEngineEventId = (studentId: number, bundleId: string, stepCode: string) =>
  deterministicEventId('bundle-step-goal-met', studentId, bundleId, stepCode);
export const completionEngineEventId = (studentId: number, bundleId: string) =>
  deterministicEventId('bundle-completion', studentId, bundleId);

interface Trigger {
  skillId: string | null;
  subSkillId: string;
  at: string;
  decisionId: string | null;
  sessionId: string | null;
}

/** The credit names its evidence: `bundle:<decisionId>` (a decision) or `session:<sessionId>` (a session's answers). */
const evidenceOf = (t: Trigger) => (t.decisionId ? `bundle:${t.decisionId}` : `session:${t.sessionId}`);

/**
 * A completed session meets the skills whose answers (summed over their sub-skills) reach the session goal
 * of BPR-01; the trigger's sub-skill is the one with the most answers (then id).
 */
function sessionTriggers(
  s: {
    sessionId: string;
    completedAt: string;
    bySubSkill: { subSkillId: string; answered: number; correct: number }[];
  },
  skillOf: Map<string, string>,
): Trigger[] {
  const goal = BUNDLE_PROGRESS_RULES.stepGoalMet.session;
  const bySkill = new Map<
    string,
    { answered: number; correct: number; top: { subSkillId: string; answered: number } }
  >();
  for (const x of s.bySubSkill) {
    const skillId = skillOf.get(x.subSkillId);
    if (!skillId) continue;
    const acc = bySkill.get(skillId) ?? { answered: 0, correct: 0, top: { subSkillId: x.subSkillId, answered: 0 } };
    acc.answered += x.answered;
    acc.correct += x.correct;
    if (x.answered > acc.top.answered) acc.top = { subSkillId: x.subSkillId, answered: x.answered };
    bySkill.set(skillId, acc);
  }
  return [...bySkill.entries()]
    .filter(([, a]) => a.answered >= goal.minAnswered && a.correct >= goal.minCorrectShare * a.answered)
    .map(([skillId, a]) => ({
      skillId,
      subSkillId: a.top.subSkillId,
      at: s.completedAt,
      decisionId: null,
      sessionId: s.sessionId,
    }));
}

/**
 * Credits `bundle_step_goal_met` for each step of the child's activated bundles that BPR-01 finds met and
 * `bundle_completion` (BPR-02) for each bundle whose every step is met. Idempotent; runs in `uow` when given
 * (a caller's transaction), otherwise in gamification's own transaction (the bundle-progress reaction).
 */
export async function creditBundleProgress(
  /** `clock`: the runtime's (a reaction's runner carries it); a badge earned here is stamped with it. */
  deps: GamificationDeps,
  studentId: number,
  options: {
    uow?: UnitOfWork;
    /** Completions the caller holds as events (the reactor's batch), in case the read model lags behind them. */
    completions?: readonly CompletedSessionResult[];
  } = {},
): Promise<BundleProgress> {
  const sql: AnySql = options.uow?.sql ?? deps.sql;
  // Each bundle counts from its first activation for the child.
  const assignments = await sql<{ bundle_id: string; activated_at: Date }[]>`
    select bundle_id, min(activated_at) as activated_at from clu_assignments
    where student_id = ${studentId} group by bundle_id order by bundle_id`;
  if (assignments.length === 0) return { stepsMet: [], completedBundleIds: [], results: [] };
  const [catalog, statuses, sessions] = await Promise.all([
    loadCatalog(sql as Sql),
    skillStatusOf(sql as Sql, studentId, {}),
    completedSessionResultsOf(sql, studentId).then((stored) => [
      ...stored,
      ...(options.completions ?? []).filter((c) => !stored.some((x) => x.sessionId === c.sessionId)),
    ]),
  ]);
  const rule = BUNDLE_PROGRESS_RULES.stepGoalMet;
  const skillOf = new Map(catalog.subSkills.map((s) => [s.id, s.skillId]));
  // Both kinds of evidence as one list of triggers: per sub-skill decisions, per skill sessions.
  const triggers: Trigger[] = [
    ...statuses.rows
      .filter((r) => !r.doNotDecideYet && r.status !== null && rule.goalStatuses.includes(r.status))
      .map((r) => ({
        skillId: r.skillId,
        subSkillId: r.subSkillId,
        at: r.decidedAt,
        decisionId: r.decisionId,
        sessionId: null,
      })),
    ...sessions.flatMap((s) => sessionTriggers(s, skillOf)),
  ].sort(
    (a, b) => a.at.localeCompare(b.at) || (a.decisionId ?? a.sessionId!).localeCompare(b.decisionId ?? b.sessionId!),
  );

  const stepsMet: StepGoalMet[] = [];
  const completedBundleIds: string[] = [];
  const inputs: MasteryEventInput[] = [];
  for (const a of assignments) {
    const bundle = catalog.supportBundles.find((b) => b.id === a.bundle_id);
    if (!bundle || bundle.steps.length === 0) continue;
    const since = a.activated_at.toISOString();
    const met = bundle.steps.flatMap((step) => {
      const trigger = triggers.find((r) => r.skillId === step.skillId && r.at >= since);
      return trigger ? [{ step, trigger }] : [];
    });
    for (const { step, trigger } of met) {
      stepsMet.push({
        bundleId: bundle.id,
        stepCode: step.stepCode,
        ruleId: rule.ruleId,
        triggerDecisionId: trigger.decisionId,
        triggerSessionId: trigger.sessionId,
        subSkillId: trigger.subSkillId,
        decidedAt: trigger.at,
      });
      inputs.push({
        engineEventId: stepEngineEventId(studentId, bundle.id, step.stepCode),
        studentId,
        sourceKind: 'bundle_step_goal_met',
        skillId: trigger.subSkillId,
        occurredAt: trigger.at,
        sessionId: evidenceOf(trigger),
      });
    }
    if (met.length === bundle.steps.length) {
      completedBundleIds.push(bundle.id);
      const last = met.map((m) => m.trigger).sort((x, y) => y.at.localeCompare(x.at))[0]!;
      inputs.push({
        engineEventId: completionEngineEventId(studentId, bundle.id),
        studentId,
        sourceKind: 'bundle_completion',
        occurredAt: last.at,
        sessionId: evidenceOf(last),
      });
    }
  }
  const results = await recordMasteryEvents(deps, inputs, options.uow ? { uow: options.uow } : {});
  return { stepsMet, completedBundleIds, results };
}
