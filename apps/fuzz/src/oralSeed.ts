import { insertPassage } from '@qiraa/content/testing';
import type { Sql } from '@qiraa/db';
import type { FastifyInstance } from 'fastify';

/** Ids of an organization's oral reading: what `{id}` of /api/orf/assessments and `passageId` name. */
export interface OralIds {
  passageId: string;
  orfAssessmentId: string;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * BOY open around today for the organization's academic year (a stored calendar), a grade 2 passage of its
 * own, and an oral reading its teacher started with its student: valid ORF requests then reach the commands.
 */
export async function seedOral(
  app: FastifyInstance,
  sql: Sql,
  org: { id: string; studentId: number; teacherToken: string },
  academicYear = '2026-2027',
): Promise<OralIds> {
  for (const [window, start] of [
    ['BOY', -5],
    ['MOY', 10],
    ['EOY', 30],
  ] as const) {
    await sql`
      insert into asm_window_calendars (organization_id, academic_year, evidence_window, starts_on, ends_on)
      values (${org.id}, ${academicYear}, ${window}, ${day(start)}, ${day(start + 10)})
      on conflict do nothing`;
  }
  const passageId = await insertPassage(sql, { organizationId: org.id, grade: 2 });
  const res = await app.inject({
    method: 'POST',
    url: '/api/orf/assessments',
    payload: { studentId: org.studentId, passageId },
    headers: { authorization: `Bearer ${org.teacherToken}` },
  });
  if (res.statusCode !== 201)
    throw new Error(`fuzz world: POST /api/orf/assessments answered ${res.statusCode}: ${res.body}`);
  return { passageId, orfAssessmentId: res.json().id };
}
