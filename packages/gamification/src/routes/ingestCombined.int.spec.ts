import type { AddressInfo } from 'node:net';
import { client, useTestWorld } from '@qiraa/app/testing';
import { writeCombinerOf } from '@qiraa/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayReport } from '../replay/replayReport';

// The API process combines writes (a wide window, so the requests below really share transactions).
const { t, w } = useTestWorld({ env: { WRITE_COMBINE_MS: '25', WRITE_COMBINE_MAX: '12', WRITE_COMBINE_LANES: '2' } });
let baseUrl: string;

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

async function newStudent(): Promise<number> {
  const res = await client(t.app, w.a.adminToken).post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طالب' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().studentId;
}

/** A real HTTP request over a socket (undici), sent at once with the others. */
async function post(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/api/gamification/mastery-events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${w.a.adminToken}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const kinds = ['band_progression', 'subskill_state_up', 'bundle_completion', 'cbm_trend_above_goal'];
const days = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'];
const event = (studentId: number, tag: string, i: number) => ({
  kind: 'mastery_event',
  engineEventId: `combined-${tag}-${i}`,
  studentId,
  sourceKind: kinds[i % kinds.length],
  schoolDay: days[i % days.length],
  occurredAt: `${days[i % days.length]}T08:00:00Z`,
  sessionId: `${tag}-${i % 3}`,
});

describe('POST /api/gamification/mastery-events with the write combiner on', () => {
  it('answers each of many parallel requests on its own; refusals fail only themselves; nothing answered is lost', async () => {
    const combiner = writeCombinerOf(t.runtime.sql);
    expect(combiner, 'WRITE_COMBINE_MS turns the combiner on').toBeDefined();
    const before = combiner!.stats();
    const students = [await newStudent(), await newStudent(), await newStudent()];
    const sent: Array<{ body: ReturnType<typeof event>; expect: 'recorded' | 'duplicate' | 'not_found' }> = [];
    for (let i = 0; i < 36; i++) {
      const body = event(students[i % 3]!, 'p', i);
      sent.push({ body, expect: 'recorded' });
      // Every 6th event is sent twice at once: one is recorded, the other answered duplicate.
      if (i % 6 === 0) sent.push({ body, expect: 'duplicate' });
      // Every 9th comes with a student of another organization (404), in the same window as the others.
      if (i % 9 === 0) sent.push({ body: event(w.b.studentId, 'other', i), expect: 'not_found' });
    }
    const answers = await Promise.all(sent.map((s) => post(s.body)));

    const recorded = answers.filter((a) => a.status === 201);
    const duplicates = answers.filter((a) => a.status === 200);
    const notFound = answers.filter((a) => a.status === 404);
    expect(answers.filter((a) => ![200, 201, 404].includes(a.status))).toEqual([]);
    expect(recorded).toHaveLength(36);
    expect(duplicates).toHaveLength(6);
    expect(notFound).toHaveLength(4);
    for (const d of duplicates) expect(d.json).toMatchObject({ outcome: 'duplicate', written: false });
    // Each pair answered with the same mastery event.
    const byEngineId = new Map<string, string>();
    answers.forEach((a, i) => {
      if (a.status === 404) return;
      const id = sent[i]!.body.engineEventId;
      const seen = byEngineId.get(id);
      if (seen) expect(a.json.masteryEventId).toBe(seen);
      byEngineId.set(id, a.json.masteryEventId as string);
    });

    // What was acknowledged is stored, once; nothing of the refused ones.
    const [stored] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from gam_mastery_events where engine_event_id like 'combined-p-%'`;
    expect(stored!.n).toBe(36);
    const [elsewhere] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from gam_mastery_events where engine_event_id like 'combined-other-%'`;
    expect(elsewhere!.n).toBe(0);
    const [xp] = await t.db.sql<{ total: number }[]>`
      select coalesce(sum(amount), 0)::int as total from gam_xp_ledger where student_id = any(${students}::bigint[])`;
    expect(xp!.total).toBe(recorded.reduce((sum, a) => sum + (a.json.xpCredited as number), 0));

    // Each decided on its student's state as the earlier ones (in its batch or committed) left it: replaying
    // the raw streams gives the read models the commands wrote.
    for (const studentId of students) {
      const report = await replayReport({ sql: t.db.sql, store: t.runtime.store }, studentId, new Date());
      expect(report.hasDrift, JSON.stringify(report.drift)).toBe(false);
    }

    // They shared transactions (the other organization's students are refused by the command: units too).
    const after = combiner!.stats();
    expect(after.units - before.units).toBe(answers.length);
    expect(after.batches - before.batches).toBeLessThan(after.units - before.units);
    expect(after.failedBatches).toBe(before.failedBatches);
  });
});
