import type { Sql } from '@qiraa/db';
import { decisionRewardsReaction, recomputeSkillStatus } from '@qiraa/decisions';
import type { EventStore } from '@qiraa/eventstore';
import type { Clock } from '@qiraa/kernel';
import type { Projector, Reactor } from '@qiraa/projections';
import type { DemoMonitoringSummary } from './seedDemoMonitoring';

/** The decisions context's notifier of monitoring alerts, a reaction (packages/decisions/src/reactions/monitoringNotifier.ts). */
const MONITORING_NOTIFIER = 'decisions_monitoring_notifier';

export interface DemoDecisionsSummary {
  skillStatuses: number;
  /** Trend decisions (latest per child) by token; `do_not_decide_yet` for a safe stop. */
  trends: Record<string, number>;
  openAlerts: Record<string, number>;
  masteryEvents: number;
  xp: number;
  /** Mastery events earned from decisions, by source kind. */
  bySource: Record<string, number>;
  /** Notifications the monitoring alerts sent to class teachers. */
  alertNotifications: number;
}

/**
 * The decisions the server's reactor would make on its first run, made now so the demo shows them at once: every
 * seeded child recomputed (skill statuses, band progressions, training-level seeds, progress monitoring), the
 * rewards reaction run so the mastery events those decisions (and the parents' children's, seeded before)
 * earn are in gamification, then the monitoring notifier run so the class teacher's inbox holds the alert. The reactor later finds nothing to add
 * (deterministic decision ids) and the notifier nothing to send (its ledger).
 */
export async function seedDemoDecisions(
  deps: { sql: Sql; store: EventStore; projector: Projector; reactor: Reactor; clock: Clock },
  studentIds: readonly number[],
): Promise<DemoDecisionsSummary> {
  for (const studentId of studentIds) await recomputeSkillStatus(deps, studentId);
  await deps.reactor.catchUp(decisionRewardsReaction.name);
  await deps.reactor.catchUp(MONITORING_NOTIFIER);
  return decisionTotals(deps.sql, studentIds);
}

async function decisionTotals(sql: Sql, studentIds: readonly number[]): Promise<DemoDecisionsSummary> {
  const ids = sql.array([...studentIds]);
  const streams = sql.array(studentIds.map((id) => `decision-${id}`));
  const [counts] = await sql<{ skill_statuses: number; notifications: number }[]>`
    select (select count(*) from es_events where stream_id = any(${streams}::text[])
              and event_type = 'SkillStatusDecided')::int as skill_statuses,
           (select count(*) from notifications where source_entity_type = 'monitoring_alert')::int as notifications`;
  const trends = await sql<{ token: string; n: number }[]>`
    select coalesce(decision, 'do_not_decide_yet') as token, count(*)::int as n from dec_trends
    where student_id = any(${ids}::bigint[]) group by 1 order by 1`;
  const alerts = await sql<{ kind: string; n: number }[]>`
    select alert_kind as kind, count(*)::int as n from dec_alerts
    where student_id = any(${ids}::bigint[]) and status <> 'closed' group by 1 order by 1`;
  const earned = await sql<{ source_kind: string; n: number; xp: number }[]>`
    with decided as (select event_id::text as id from es_events where stream_id = any(${streams}::text[]))
    select m.source_kind, count(*)::int as n,
           coalesce(sum((select coalesce(sum(x.amount), 0) from gam_xp_ledger x where x.mastery_event_id = m.id)), 0)::int
             as xp
    from gam_mastery_events m join decided d on m.engine_event_id = d.id
    group by 1 order by 1`;
  return {
    skillStatuses: counts!.skill_statuses,
    trends: Object.fromEntries(trends.map((t) => [t.token, t.n])),
    openAlerts: Object.fromEntries(alerts.map((a) => [a.kind, a.n])),
    masteryEvents: earned.reduce((s, e) => s + e.n, 0),
    xp: earned.reduce((s, e) => s + e.xp, 0),
    bySource: Object.fromEntries(earned.map((e) => [e.source_kind, e.n])),
    alertNotifications: counts!.notifications,
  };
}

const listed = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([key, n]) => `${n} ${key}`)
    .join(', ') || 'none';

/** The seed's lines about what the decisions context made of the evidence. */
export function demoDecisionsLines(d: DemoDecisionsSummary, monitoring: DemoMonitoringSummary | null): string[] {
  const lines = [
    `Decisions: ${d.skillStatuses} skill statuses decided from that evidence; ${d.masteryEvents} mastery events ` +
      `earned from real evidence (${d.xp} XP, the decision's id as engine event id: ${listed(d.bySource)}; ` +
      'GET /api/sse/students/{id}/skill-status).',
  ];
  if (!monitoring) return lines;
  if (monitoring.kind === 'too_early') {
    lines.push(
      `Progress monitoring: none seeded: six weekly probes before today would start on ${monitoring.firstDay}, ` +
        'before the BOY window (a trend needs at least six probes over 35 days).',
    );
    return lines;
  }
  lines.push(
    `Progress monitoring: weekly oral-reading probes from ${monitoring.firstDay} to ${monitoring.lastDay}: ` +
      `${monitoring.rising.firstName} read ${monitoring.rising.wcpm.join(', ')} words a minute (faster than the ` +
      `goal line asks), ${monitoring.dipping.firstName} ${monitoring.dipping.wcpm.join(', ')} (a sharp drop). ` +
      `Trends: ${listed(d.trends)}; open alerts: ${listed(d.openAlerts)}; ${d.alertNotifications} ` +
      'notifications to the class teacher (GET /api/sse/students/{id}/monitoring; GET /api/notifications).',
  );
  return lines;
}
