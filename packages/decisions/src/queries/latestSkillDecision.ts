import type { AnySql } from '@qiraa/db';

/** A skill status as `dec_skill_status` holds it with the events it was decided on. */
export interface SkillDecisionTrail {
  status: string | null;
  decisionId: string;
  evidenceEventIds: string[];
  voidEventIds: string[];
}

/** The newest decision on a student's sub-skill (any window), or null: what an auditor's explanation starts from. */
export async function latestSkillDecision(
  sql: AnySql,
  studentId: number,
  subSkillId: string,
): Promise<SkillDecisionTrail | null> {
  const [row] = await sql<
    { status: string | null; decision_id: string; evidence_event_ids: string[]; void_event_ids: string[] }[]
  >`
    select status, decision_id::text as decision_id, evidence_event_ids::text[] as evidence_event_ids,
           void_event_ids::text[] as void_event_ids
    from dec_skill_status where student_id = ${studentId} and sub_skill_id = ${subSkillId}
    order by decided_at desc, stream_version desc limit 1`;
  if (!row) return null;
  return {
    status: row.status,
    decisionId: row.decision_id,
    evidenceEventIds: row.evidence_event_ids,
    voidEventIds: row.void_event_ids,
  };
}
