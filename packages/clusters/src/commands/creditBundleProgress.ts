import { loadCatalog } from '@qiraa/content';
import type { AnySql, Sql, UnitOfWork } from '@qiraa/db';
import { skillStatusOf } from '@qiraa/decisions';
import { deterministicEventId, type EventStore } from '@qiraa/eventstore';
import { type MasteryEventInput, type RecordResult, recordMasteryEvents } from '@qiraa/gamification';
import { BUNDLE_PROGRESS_RULES } from '../rules/bundleProgressRules';

export interface StepGoalMet {
  bundleId: string;
  stepCode: string;
  ruleId: string;
  /** The skill-status decision that met the step (the evidence). */
  triggerDecisionId: string;
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

/**
 * Credits `bundle_step_goal_met` for each step of the child's activated bundles that BPR-01 finds met and
 * `bundle_completion` (BPR-02) for each bundle whose every step is met. Idempotent; runs in `uow` when given
 * (the reactor's batch), otherwise in gamification's own transaction.
 */
export async function creditBundleProgress(
  deps: { sql: Sql; store: EventStore },
  studentId: number,
  options: { uow?: UnitOfWork } = {},
): Promise<BundleProgress> {
  const sql: AnySql = options.uow?.sql ?? deps.sql;
  // Each bundle counts from its first activation for the child.
  const assignments = await sql<{ bundle_id: string; activated_at: Date }[]>`
    select bundle_id, min(activated_at) as activated_at from clu_assignments
    where student_id = ${studentId} group by bundle_id order by bundle_id`;
  if (assignments.length === 0) return { stepsMet: [], completedBundleIds: [], results: [] };
  const [catalog, statuses] = await Promise.all([loadCatalog(sql as Sql), skillStatusOf(sql as Sql, studentId, {})]);
  const rule = BUNDLE_PROGRESS_RULES.stepGoalMet;
  const atGoal = statuses.rows
    .filter((r) => !r.doNotDecideYet && r.status !== null && rule.goalStatuses.includes(r.status))
    .sort((a, b) => a.decidedAt.localeCompare(b.decidedAt) || a.decisionId.localeCompare(b.decisionId));

  const stepsMet: StepGoalMet[] = [];
  const completedBundleIds: string[] = [];
  const inputs: MasteryEventInput[] = [];
  for (const a of assignments) {
    const bundle = catalog.supportBundles.find((b) => b.id === a.bundle_id);
    if (!bundle || bundle.steps.length === 0) continue;
    const since = a.activated_at.toISOString();
    const met = bundle.steps.flatMap((step) => {
      const trigger = atGoal.find((r) => r.skillId === step.skillId && r.decidedAt >= since);
      return trigger ? [{ step, trigger }] : [];
    });
    for (const { step, trigger } of met) {
      stepsMet.push({
        bundleId: bundle.id,
        stepCode: step.stepCode,
        ruleId: rule.ruleId,
        triggerDecisionId: trigger.decisionId,
        subSkillId: trigger.subSkillId,
        decidedAt: trigger.decidedAt,
      });
      inputs.push({
        engineEventId: stepEngineEventId(studentId, bundle.id, step.stepCode),
        studentId,
        sourceKind: 'bundle_step_goal_met',
        skillId: trigger.subSkillId,
        occurredAt: trigger.decidedAt,
        sessionId: `bundle:${trigger.decisionId}`,
      });
    }
    if (met.length === bundle.steps.length) {
      completedBundleIds.push(bundle.id);
      const last = met.map((m) => m.trigger).sort((x, y) => y.decidedAt.localeCompare(x.decidedAt))[0]!;
      inputs.push({
        engineEventId: completionEngineEventId(studentId, bundle.id),
        studentId,
        sourceKind: 'bundle_completion',
        occurredAt: last.decidedAt,
        sessionId: `bundle:${last.decisionId}`,
      });
    }
  }
  const results = await recordMasteryEvents(deps, inputs, options.uow ? { uow: options.uow } : {});
  return { stepsMet, completedBundleIds, results };
}
