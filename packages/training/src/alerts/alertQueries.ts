import type { AnySql } from '@qiraa/db';
import type { OpenAlertRef } from '../queries/trainingLevelsOf';
import { labelsOf, newWordingCache, wordingOf } from './alertPresentation';
import type { AlertEvidence, TrainingAlertKind } from './alertRules';

export const ALERT_LIST_LIMIT = 500;

interface AlertRowDb {
  alert_id: string;
  student_id: string;
  full_name_ar: string;
  skill_id: string;
  measure_code: string | null;
  level_number: number;
  kind: TrainingAlertKind;
  raised_at: Date;
  acknowledged_at: Date | null;
  status: 'open' | 'acknowledged' | 'resolved';
  evidence: AlertEvidence;
}

/**
 * The alerts of the students of a class (its active roster) or of a support group's members, newest first.
 * `open` lists what is not resolved yet (open or acknowledged: an acknowledgement records that a teacher saw
 * it, the child still needs the look); `all` adds the resolved ones. Scope checks are the route's.
 */
export async function alertsOf(sql: AnySql, scope: { classId: string } | { groupId: string }, status: 'open' | 'all') {
  const students =
    'classId' in scope
      ? sql`select student_user_id from class_students where class_id = ${scope.classId} and active`
      : sql`select student_user_id from trn_support_group_members where group_id = ${scope.groupId}`;
  const rows = await sql<AlertRowDb[]>`
    select a.alert_id, a.student_id::text, u.full_name_ar, a.skill_id, a.measure_code, a.level_number, a.kind,
           a.raised_at, a.acknowledged_at, a.status, a.evidence
    from trn_alerts a join users u on u.id = a.student_id
    where a.student_id in (${students}) and (${status} = 'all' or a.status <> 'resolved')
    order by a.raised_at desc, a.alert_id
    limit ${ALERT_LIST_LIMIT}`;
  const cache = newWordingCache();
  return Promise.all(
    rows.map(async (r) => {
      const facts = {
        alertId: r.alert_id,
        studentId: Number(r.student_id),
        studentName: r.full_name_ar,
        skillId: r.skill_id,
        levelNumber: r.level_number,
        kind: r.kind,
        daysAtLevel: r.evidence.daysAtLevel,
      };
      return {
        alertId: r.alert_id,
        studentId: Number(r.student_id),
        fullNameAr: r.full_name_ar,
        skillId: r.skill_id,
        ...(await labelsOf(sql, r.skill_id, r.level_number)),
        measureCode: r.measure_code,
        levelNumber: r.level_number,
        kind: r.kind,
        ...(await wordingOf(sql, facts, cache)),
        raisedAt: r.raised_at.toISOString(),
        acknowledgedAt: r.acknowledged_at?.toISOString() ?? null,
        status: r.status,
        evidence: r.evidence,
      };
    }),
  );
}

/** The unresolved alerts of a student per skill: the levels view's `openAlerts` (registered as its source). */
export async function openAlertsOf(sql: AnySql, studentId: number): Promise<Map<string, OpenAlertRef[]>> {
  const rows = await sql<{ skill_id: string; alert_id: string; kind: TrainingAlertKind; status: string }[]>`
    select skill_id, alert_id, kind, status from trn_alerts
    where student_id = ${studentId} and status <> 'resolved' order by raised_at, alert_id`;
  const bySkill = new Map<string, OpenAlertRef[]>();
  for (const r of rows) {
    const list = bySkill.get(r.skill_id) ?? [];
    list.push({ alertId: r.alert_id, kind: r.kind, acknowledged: r.status === 'acknowledged' });
    bySkill.set(r.skill_id, list);
  }
  return bySkill;
}
