import type { AnySql } from '@qiraa/db';
import type { StatusToken } from '../rules/ruleSet';

/** One student's standing decision on a sub-skill, from their newest decided window. */
export interface LatestSkillStatus {
  studentId: number;
  subSkillId: string;
  status: StatusToken | null;
  doNotDecideYet: boolean;
  ruleSetVersion: string;
}

/**
 * For many students at once (a class), each student's skill-status rows of their newest (academic year,
 * window) in `dec_skill_status`: what sessions rank needs on and hold out `do_not_decide_yet` students with.
 * One statement for the whole list.
 */
export async function latestSkillStatuses(sql: AnySql, studentIds: readonly number[]): Promise<LatestSkillStatus[]> {
  if (studentIds.length === 0) return [];
  const rows = await sql<
    {
      student_id: string;
      sub_skill_id: string;
      status: StatusToken | null;
      do_not_decide_yet: boolean;
      rule_set_version: string;
    }[]
  >`
    with newest as (
      select distinct on (student_id) student_id, academic_year, evidence_window
      from dec_skill_status where student_id = any(${studentIds as number[]})
      order by student_id, academic_year desc, array_position(array['BOY','MOY','EOY'], evidence_window) desc
    )
    select s.student_id, s.sub_skill_id, s.status, s.do_not_decide_yet, s.rule_set_version
    from dec_skill_status s join newest n using (student_id, academic_year, evidence_window)
    order by s.student_id, s.sub_skill_id`;
  return rows.map((r) => ({
    studentId: Number(r.student_id),
    subSkillId: r.sub_skill_id,
    status: r.status,
    doNotDecideYet: r.do_not_decide_yet,
    ruleSetVersion: r.rule_set_version,
  }));
}
