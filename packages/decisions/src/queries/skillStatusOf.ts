import type { ScreeningWindow } from '@qiraa/assessment';
import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import type { EvidenceSummary, HoldReason } from '../engine/skillStatusTypes';
import type { StatusToken } from '../rules/ruleSet';
import type { SkillStatusResponse } from '../schemas';
import { safeStopCode } from '../schemas/safeStopCode';

interface Row {
  academic_year: string;
  evidence_window: ScreeningWindow;
  sub_skill_id: string;
  status: StatusToken | null;
  adr_rule_id: string | null;
  ssr_rule_id: string | null;
  do_not_decide_yet: boolean;
  hold_reason: HoldReason | null;
  rule_set_version: string;
  evidence: EvidenceSummary;
  decision_id: string;
  decided_at: Date;
}

const WINDOW_RANK = "array_position(array['BOY','MOY','EOY'], evidence_window)";

/**
 * A student's skill statuses of one window from `dec_skill_status`: the window asked for (in the academic
 * year asked for, else the newest year that has it), or the newest window with decisions. Rows in catalog
 * order of the sub-skills.
 */
export async function skillStatusOf(
  sql: Sql,
  studentId: number,
  query: { window?: ScreeningWindow; academicYear?: string },
): Promise<SkillStatusResponse> {
  const windows = await sql<{ academic_year: string; evidence_window: ScreeningWindow }[]>`
    select distinct academic_year, evidence_window, ${sql.unsafe(WINDOW_RANK)} as rank
    from dec_skill_status where student_id = ${studentId}
    order by academic_year desc, rank desc`;
  const chosen = windows.find(
    (w) =>
      (query.window === undefined || w.evidence_window === query.window) &&
      (query.academicYear === undefined || w.academic_year === query.academicYear),
  );
  const base = {
    studentId,
    windows: windows.map((w) => ({ academicYear: w.academic_year, window: w.evidence_window })),
  };
  if (!chosen) {
    return { ...base, academicYear: query.academicYear ?? null, window: query.window ?? null, rows: [] };
  }
  const [rows, catalog] = await Promise.all([
    sql<Row[]>`
      select academic_year, evidence_window, sub_skill_id, status, adr_rule_id, ssr_rule_id, do_not_decide_yet,
             hold_reason, rule_set_version, evidence, decision_id, decided_at
      from dec_skill_status
      where student_id = ${studentId} and academic_year = ${chosen.academic_year}
        and evidence_window = ${chosen.evidence_window}`,
    loadCatalog(sql),
  ]);
  const order = new Map(catalog.subSkills.map((s, i) => [s.id, i]));
  rows.sort(
    (a, b) =>
      (order.get(a.sub_skill_id) ?? 999) - (order.get(b.sub_skill_id) ?? 999) ||
      a.sub_skill_id.localeCompare(b.sub_skill_id),
  );
  return {
    ...base,
    academicYear: chosen.academic_year,
    window: chosen.evidence_window,
    rows: rows.map((r) => {
      const subSkill = catalog.subSkillById.get(r.sub_skill_id);
      return {
        subSkillId: r.sub_skill_id,
        subSkillLabelAr: subSkill?.labelAr ?? r.sub_skill_id,
        skillId: subSkill?.skillId ?? null,
        window: r.evidence_window,
        academicYear: r.academic_year,
        status: r.status,
        safeStop: r.do_not_decide_yet ? ('do_not_decide_yet' as const) : null,
        code: safeStopCode(r.do_not_decide_yet),
        holdReason: r.hold_reason,
        adrRuleId: r.adr_rule_id,
        ssrRuleId: r.ssr_rule_id,
        doNotDecideYet: r.do_not_decide_yet,
        ruleSetVersion: r.rule_set_version,
        decisionId: r.decision_id,
        decidedAt: r.decided_at.toISOString(),
        evidence: r.evidence,
      };
    }),
  };
}
