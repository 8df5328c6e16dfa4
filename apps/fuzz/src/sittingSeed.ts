import { openWindowFor } from '@qiraa/assessment/testing';
import { insertForm } from '@qiraa/content/testing';
import type { Sql } from '@qiraa/db';
import type { FastifyInstance } from 'fastify';

/**
 * An open BOY window in both organizations, a global grade-2 BOY form with its global cell, and a sitting
 * of each organization's student: the `{id}` of the diagnostic-session routes then names real sittings of
 * A (valid requests) and B (tenant probes).
 */
export async function seedSittings(
  app: FastifyInstance,
  sql: Sql,
  orgs: { a: { id: string; studentToken: string }; b: { id: string; studentToken: string } },
): Promise<{ a: string; b: string }> {
  for (const org of [orgs.a, orgs.b]) await openWindowFor(sql, org.id, '2026-2027');
  await insertForm(sql, { grade: 2, window: 'BOY', measures: { text1_comprehension: 3 } });
  await sql`
    insert into content_diagnostic_blueprint_cells (organization_id, grade, window_code, kind, measures)
    values (null, 2, 'BOY', 'measures', ${sql.array(['text1_comprehension'], 1009)})
    on conflict do nothing`;
  const start = async (token: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/diagnostic-sessions/start',
      headers: { authorization: `Bearer ${token}` },
    });
    const id = res.statusCode === 200 ? (res.json() as { sittingId: string | null }).sittingId : null;
    if (!id) throw new Error(`fuzz world: sitting start answered ${res.statusCode}: ${res.body}`);
    return id;
  };
  return { a: await start(orgs.a.studentToken), b: await start(orgs.b.studentToken) };
}
