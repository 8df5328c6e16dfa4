import type { AnySql } from '@qiraa/db';

export interface CompletedSessionResult {
  sessionId: string;
  completedAt: string;
  bySubSkill: { subSkillId: string; answered: number; correct: number }[];
}

/**
 * The child's completed online sessions with their answers per sub-skill, oldest completion first (the real
 * answers the bundle-progress credit reads; read models of `sessions_practice`).
 */
export async function completedSessionResultsOf(sql: AnySql, studentId: number): Promise<CompletedSessionResult[]> {
  const rows = await sql<
    { session_id: string; completed_at: Date; sub_skill_id: string; answered: number; correct: number }[]
  >`
    select p.session_id, p.completed_at, a.sub_skill_id, count(*)::int as answered,
           count(*) filter (where a.correct)::int as correct
    from ses_slot_progress p
    join ses_slot_answers a on a.session_id = p.session_id and a.student_id = p.student_id
    where p.student_id = ${studentId} and p.completed_at is not null
    group by p.session_id, p.completed_at, a.sub_skill_id
    order by p.completed_at, p.session_id, a.sub_skill_id`;
  const out = new Map<string, CompletedSessionResult>();
  for (const r of rows) {
    const result = out.get(r.session_id) ?? {
      sessionId: r.session_id,
      completedAt: r.completed_at.toISOString(),
      bySubSkill: [],
    };
    result.bySubSkill.push({ subSkillId: r.sub_skill_id, answered: r.answered, correct: r.correct });
    out.set(r.session_id, result);
  }
  return [...out.values()];
}
