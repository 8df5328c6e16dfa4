import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { blueprint, demoBlueprints } from '../testing/blueprintKit';

const { t, w } = useTestWorld();
const su = () => client(t.app, w.superToken);
const adminA = () => client(t.app, w.a.adminToken);

describe('session blueprints: import, versions, approval', () => {
  it('imports the demo pack pending_review, approves it operational, and a re-import stores nothing', async () => {
    const body = await demoBlueprints();
    const res = await su().post('/api/session-blueprints/import', body);
    expect(res.statusCode).toBe(201);
    const report = res.json();
    expect(report.status).toBe('pending_review');
    expect(report.counts).toEqual({ accepted: 6, unchanged: 0, rejected: 0 });
    const first = report.rows[0].blueprintId as string;
    expect((await su().get(`/api/session-blueprints/${first}`)).json()).toMatchObject({
      status: 'pending_review',
      version: 1,
      organizationId: null,
    });

    const approved = await su().post(`/api/session-blueprints/${report.batchId}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'operational', retired: [] });
    expect((await su().get(`/api/session-blueprints/${first}`)).json().status).toBe('operational');
    expect((await su().post(`/api/session-blueprints/${report.batchId}/approve`)).json()).toMatchObject({
      code: 'CONFLICT',
      reason: 'already_approved',
    });

    const again = (await su().post('/api/session-blueprints/import', body)).json();
    expect(again.counts).toEqual({ accepted: 0, unchanged: 6, rejected: 0 });
    expect(again.rows[0]).toMatchObject({ blueprintId: first, version: 1, unchanged: true });
    const [row] = await t.db.sql<
      { n: number }[]
    >`select count(*)::int as n from ses_blueprints where batch_id = ${again.batchId}`;
    expect(row?.n).toBe(0);
  });

  it('a changed blueprint is the next version; approving it retires the earlier one', async () => {
    const b = blueprint();
    const v1 = (await su().post('/api/session-blueprints/import', { blueprints: [b] })).json();
    await su().post(`/api/session-blueprints/${v1.batchId}/approve`);
    const v2 = (
      await su().post('/api/session-blueprints/import', { blueprints: [{ ...b, targetMinutes: 25 }] })
    ).json();
    expect(v2.rows[0]).toMatchObject({ version: 2, unchanged: false });
    const done = (await su().post(`/api/session-blueprints/${v2.batchId}/approve`)).json();
    expect(done.retired).toEqual([v1.rows[0].blueprintId]);
    // Tags in another order are the same content.
    const same = (
      await su().post('/api/session-blueprints/import', {
        blueprints: [{ ...b, targetMinutes: 25, tags: ['phonics'] }],
      })
    ).json();
    expect(same.rows[0].unchanged).toBe(true);
  });

  it('approving an older pending version after a newer one is live leaves the newer one in the catalog', async () => {
    const b = blueprint();
    const v1 = (await su().post('/api/session-blueprints/import', { blueprints: [b] })).json();
    const v2 = (
      await su().post('/api/session-blueprints/import', { blueprints: [{ ...b, targetMinutes: 30 }] })
    ).json();
    await su().post(`/api/session-blueprints/${v2.batchId}/approve`);
    const late = (await su().post(`/api/session-blueprints/${v1.batchId}/approve`)).json();
    expect(late.retired).toEqual([v1.rows[0].blueprintId]);
    expect((await su().get(`/api/session-blueprints/${v2.rows[0].blueprintId}`)).json().status).toBe('operational');
  });

  it('refuses rows with a reason: unknown or out-of-grade sub-skill, a blocked string, a repeated id', async () => {
    const ok = blueprint();
    const res = await su().post('/api/session-blueprints/import', {
      blueprints: [
        ok,
        blueprint({ subSkillIds: ['ls_not_a_skill'] }),
        blueprint({ grade: 1, subSkillIds: ['ra_word_family'] }),
        blueprint({ titleAr: 'أنت غبي' }),
        { ...ok },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().rows.map((r: { rejectReason: string | null }) => r.rejectReason)).toEqual([
      null,
      'unknown_sub_skill',
      'sub_skill_not_in_grade',
      'language_safety_blocked',
      'duplicate_external_id',
    ]);
  });

  it('422 for a bad body; tenant: organization A’s batch is 404 to B, global batches 403 to approve for an admin', async () => {
    expect((await su().post('/api/session-blueprints/import', { blueprints: [] })).statusCode).toBe(422);
    expect(
      (await su().post('/api/session-blueprints/import', { blueprints: [blueprint({ theme: 'jungle' })] })).statusCode,
    ).toBe(422);
    const own = (await adminA().post('/api/session-blueprints/import', { blueprints: [blueprint()] })).json();
    expect(own.organizationId).toBe(w.a.id);
    const adminB = client(t.app, w.b.adminToken);
    expect((await adminB.get(`/api/session-blueprints/import/${own.batchId}`)).statusCode).toBe(404);
    expect((await adminB.get(`/api/session-blueprints/${own.rows[0].blueprintId}`)).statusCode).toBe(404);
    expect((await adminB.post(`/api/session-blueprints/${own.batchId}/approve`)).statusCode).toBe(404);
    const global = (await su().post('/api/session-blueprints/import', { blueprints: [blueprint()] })).json();
    expect((await adminA().post(`/api/session-blueprints/${global.batchId}/approve`)).statusCode).toBe(403);
    expect((await client(t.app, w.a.teacherToken).get('/api/session-blueprints/import')).statusCode).toBe(403);
    const list = (await adminA().get('/api/session-blueprints/import?limit=2')).json();
    expect(list.batches).toHaveLength(2);
    const next = (await adminA().get(`/api/session-blueprints/import?cursor=${list.nextCursor}`)).json();
    expect(next.batches.map((b: { batchId: string }) => b.batchId)).not.toContain(list.batches[0].batchId);
    expect((await adminA().get('/api/session-blueprints/import?cursor=nope')).statusCode).toBe(422);
  });
});
