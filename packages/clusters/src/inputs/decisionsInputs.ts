import type { AnySql, Sql } from '@qiraa/db';
import { openAcuteRegressionsOf, STATUS_TOKENS, type StatusToken, skillStatusOf } from '@qiraa/decisions';
import type { ClusterInputsPort, StudentClusterInput, TierEvidence } from './port';

/** The active students of a class, ascending (the roster of identity's `class_students`). */
async function rosterOf(sql: AnySql, classId: string): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    select student_user_id::text as id from class_students where class_id = ${classId} and active order by 1`;
  return rows.map((r) => Number(r.id));
}

const weakest = (tokens: readonly (StatusToken | null)[]): StatusToken | null => {
  const ranks = tokens.filter((t): t is StatusToken => t !== null).map((t) => STATUS_TOKENS.indexOf(t));
  return ranks.length === 0 ? null : STATUS_TOKENS[Math.min(...ranks)]!;
};

/**
 * The input port over decisions' exports: open acute_regression alerts (`openAcuteRegressionsOf`), the
 * skill statuses of the newest window (`skillStatusOf`), and (once decisions exports them) the profile and
 * the bundle recommendation. Every read goes through `sql`, so inside bulk activation's transaction the
 * fresh compute reads what that transaction sees.
 */
export const decisionsInputs: ClusterInputsPort = {
  async studentsOfClass(sql, classId) {
    const [roster, alerts] = await Promise.all([rosterOf(sql, classId), openAcuteRegressionsOf(sql, { classId })]);
    const alertsOf = new Map(alerts.map((a) => [a.studentId, a.alertIds]));
    const inputs: StudentClusterInput[] = [];
    for (const studentId of roster) {
      const status = await skillStatusOf(sql as Sql, studentId, {});
      inputs.push({
        studentId,
        acuteRegressionAlertIds: alertsOf.get(studentId) ?? [],
        profile: null,
        recommendation: null,
        weakestStatus: weakest(status.rows.map((r) => r.status)),
      });
    }
    return inputs;
  },

  async tierEvidenceOf(sql, studentId) {
    const status = await skillStatusOf(sql as Sql, studentId, {});
    const seen = new Set<string>();
    const out: TierEvidence[] = [];
    for (const row of status.rows) {
      if (!row.skillId) continue;
      // A measure's questions can span several sub-skills of a skill: count each result once per skill.
      for (const m of row.evidence.measures) {
        const key = `${row.skillId}|m|${m.sessionId}|${m.measureCode}`;
        if (seen.has(key) || m.level === null) continue;
        seen.add(key);
        out.push({ skillId: row.skillId, taskType: 'digital', measureLevel: m.level as 1 | 2 | 3 | 4, band: null });
      }
      for (const r of row.evidence.reads) {
        const key = `${row.skillId}|r|${r.attemptId}`;
        if (seen.has(key) || r.band === null) continue;
        seen.add(key);
        out.push({ skillId: row.skillId, taskType: r.cell, measureLevel: null, band: r.band });
      }
    }
    return out;
  },
};
