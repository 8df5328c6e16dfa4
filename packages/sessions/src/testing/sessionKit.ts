import { randomUUID } from 'node:crypto';
import type { Client } from '@qiraa/app/testing';
import type { Sql } from '@qiraa/db';

/**
 * A standing skill-status decision of a student, written as the decisions projection writes its row (the
 * sessions context only reads these rows, through latestSkillStatuses).
 */
export async function decide(
  sql: Sql,
  studentId: number,
  subSkillId: string,
  status: 'beginning' | 'developing' | 'on_track' | 'strong' | null,
): Promise<void> {
  const dndy = status === null;
  await sql`
    insert into dec_skill_status (student_id, academic_year, evidence_window, sub_skill_id, status, adr_rule_id,
      ssr_rule_id, do_not_decide_yet, hold_reason, rule_set_version, evidence, evidence_event_ids, void_event_ids,
      decision_id, decided_at, stream_version)
    values (${studentId}, '2026-2027', 'BOY', ${subSkillId}, ${status}, ${dndy ? null : 'ADR-01'},
      ${dndy ? null : 'SSR-01'}, ${dndy}, ${dndy ? 'split_evidence' : null}, 'v1', ${sql.json({})}, '{}', '{}',
      ${randomUUID()}, now(), 1)
    on conflict (student_id, academic_year, evidence_window, sub_skill_id) do update
      set status = excluded.status, do_not_decide_yet = excluded.do_not_decide_yet, hold_reason = excluded.hold_reason,
          adr_rule_id = excluded.adr_rule_id, ssr_rule_id = excluded.ssr_rule_id`;
}

/** Enrols a student through the route; returns the id. */
export async function enrol(api: Client, classId: string, fullNameAr: string, gender?: 'female' | 'male') {
  const res = await api.post(`/api/classes/${classId}/students`, { fullNameAr, ...(gender ? { gender } : {}) });
  if (res.statusCode !== 201) throw new Error(`enrol: ${res.statusCode} ${res.body}`);
  return res.json().studentId as number;
}

/** A draft of the blueprint for the class, through the route. */
export async function draft(api: Client, classId: string, blueprintId: string): Promise<string> {
  const res = await api.post('/api/sessions/from-blueprint', { classId, blueprintId });
  if (res.statusCode !== 201) throw new Error(`from-blueprint: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

export async function accepted(api: Client, sessionId: string, body: object) {
  const res = await api.post(`/api/sessions/${sessionId}/accept`, body);
  if (res.statusCode !== 200) throw new Error(`accept: ${res.statusCode} ${res.body}`);
  return res.json();
}
