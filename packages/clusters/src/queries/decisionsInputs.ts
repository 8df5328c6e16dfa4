import type { Sql } from '@qiraa/db';
import {
  isDataIncomplete,
  openAcuteRegressionsOf,
  profilesOfClass,
  recommendationsOfClass,
  STATUS_TOKENS,
  type StatusToken,
  skillStatusOf,
} from '@qiraa/decisions';
import type { ClusterInputsPort, StudentClusterInput, TierEvidence } from '../engine/clusterInputs';

const weakest = (tokens: readonly (StatusToken | null)[]): StatusToken | null => {
  const ranks = tokens.filter((t): t is StatusToken => t !== null).map((t) => STATUS_TOKENS.indexOf(t));
  return ranks.length === 0 ? null : STATUS_TOKENS[Math.min(...ranks)]!;
};

/**
 * The input port over decisions' exports: the class's profiles and bundle recommendations (`profilesOfClass`,
 * `recommendationsOfClass`: each student's newest window), open acute_regression alerts
 * (`openAcuteRegressionsOf`), and, only for a recommendation without a scaffold tier, the skill statuses of the
 * newest window (`skillStatusOf`, CLU-03's fallback). Every read goes through `sql`, so inside bulk
 * activation's transaction the fresh compute reads what that transaction sees.
 */
export const decisionsInputs: ClusterInputsPort = {
  async studentsOfClass(sql, classId) {
    const [profiles, recommendations, alerts] = await Promise.all([
      profilesOfClass(sql as Sql, classId),
      recommendationsOfClass(sql as Sql, classId),
      openAcuteRegressionsOf(sql, { classId }),
    ]);
    const alertsOf = new Map(alerts.map((a) => [a.studentId, a.alertIds]));
    const recommendationOf = new Map(recommendations.map((r) => [r.studentId, r.recommendation]));
    const inputs: StudentClusterInput[] = [];
    for (const { studentId, profile } of profiles) {
      const rec = recommendationOf.get(studentId) ?? null;
      const needsFallback = rec?.outcome === 'recommended' && rec.scaffoldTier === null;
      const statuses = needsFallback ? (await skillStatusOf(sql as Sql, studentId, {})).rows : [];
      inputs.push({
        studentId,
        acuteRegressionAlertIds: alertsOf.get(studentId) ?? [],
        profile: profile && {
          dataIncomplete: isDataIncomplete(profile),
          doNotDecideYet: profile.doNotDecideYet,
        },
        recommendation: rec && {
          outcome: rec.outcome,
          bundleId: rec.bundleId,
          anchorSkillGroup: rec.anchorSkillGroup,
          scaffoldTier: rec.scaffoldTier,
          sufficientData: rec.sufficientData,
          recommendationId: rec.recommendationId,
        },
        weakestStatus: weakest(statuses.map((r) => r.status)),
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
