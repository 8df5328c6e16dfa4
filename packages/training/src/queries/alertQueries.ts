import type { AnySql } from '@qiraa/db';
import { activeClassRosterQuery, userNamesQuery } from '@qiraa/identity';
import type { AlertEvidence, TrainingAlertKind } from '../rules/alertRules';
import { type AlertKey, encodeAlertCursor } from './alertCursor';
import { labelsOf, newWordingCache, wordingOf } from './alertPresentation';
import type { OpenAlertRef } from './trainingLevelsOf';

interface AlertRowDb {
  alert_id: string;
  student_id: string;
  full_name_ar: string;
  skill_id: string;
  measure_code: string | null;
  level_number: number;
  kind: TrainingAlertKind;
  raised_at: Date;
  /** raised_at as PostgreSQL prints it: microseconds and offset, so the cursor compares exactly. */
  raised_key: string;
  acknowledged_at: Date | null;
  status: 'open' | 'acknowledged' | 'resolved';
  evidence: AlertEvidence;
}

/**
 * The alerts of the students of a class (its active roster) or of a support group's members, newest first.
 * `open` lists what is not resolved yet (open or acknowledged: an acknowledgement records that a teacher saw
 * it, the child still needs the look); `all` adds the resolved ones. Scope checks are the route's. Keyset pages:
 * the cursor is the last row's (raisedAt, alertId), so an alert raised while a client pages never shifts a page.
 */
export async function alertsOf(
  sql: AnySql,
  scope: { classId: string } | { groupId: string },
  status: 'open' | 'all',
  page: { limit: number; after: AlertKey | null },
) {
  const students =
    'classId' in scope
      ? activeClassRosterQuery(sql, scope.classId)
      : sql`select student_user_id from trn_support_group_members where group_id = ${scope.groupId}`;
  const rows = await sql<AlertRowDb[]>`
    select a.alert_id, a.student_id::text, u.full_name_ar, a.skill_id, a.measure_code, a.level_number, a.kind,
           a.raised_at, a.raised_at::text as raised_key, a.acknowledged_at, a.status, a.evidence
    from trn_alerts a join (${userNamesQuery(sql)}) u on u.id = a.student_id
    where a.student_id in (${students}) and (${status} = 'all' or a.status <> 'resolved')
      and (${page.after?.raisedAt ?? null}::timestamptz is null
           or (a.raised_at, a.alert_id) < (${page.after?.raisedAt ?? null}::timestamptz, ${page.after?.alertId ?? null}::uuid))
    order by a.raised_at desc, a.alert_id desc
    limit ${page.limit + 1}`;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  const nextCursor =
    rows.length > page.limit && last ? encodeAlertCursor({ raisedAt: last.raised_key, alertId: last.alert_id }) : null;
  const cache = newWordingCache();
  const items = await Promise.all(
    shown.map(async (r) => {
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
  return { items, nextCursor };
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
