import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshId, imported, itemBody, trainingItem } from '../testing/importTestKit';

const { t, w } = useTestWorld();
const batches: Record<string, string> = {};

const su = () => client(t.app, w.superToken);
const adminA = () => client(t.app, w.a.adminToken);
const adminB = () => client(t.app, w.b.adminToken);
const prompts = () => ({
  contentKind: 'scaffold_prompt',
  scaffoldPrompts: [{ external_id: freshId('sp'), sub_skill_id: 'ls_short_vowels', tier: 1, prompt_ar: 'انطق الحرف' }],
});

beforeAll(async () => {
  batches.global1 = (await imported(su(), itemBody([trainingItem(freshId('g'))]))).batchId;
  batches.orgA = (await imported(adminA(), itemBody([trainingItem(freshId('a'))]))).batchId;
  batches.orgB = (await imported(adminB(), itemBody([trainingItem(freshId('b'))]))).batchId;
  batches.global2 = (await imported(su(), itemBody([trainingItem(freshId('g'))]))).batchId;
  batches.prompt = (await imported(su(), prompts())).batchId;
}, 120_000);

const listed = async (api: ReturnType<typeof client>, query = '') => {
  const res = await api.get(`/api/items/import${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /api/items/import', () => {
  it('lists item batches by default, newest first, without rows', async () => {
    const page = await listed(su());
    expect(page.batches.map((b: { batchId: string }) => b.batchId)).toEqual([
      batches.global2,
      batches.orgB,
      batches.orgA,
      batches.global1,
    ]);
    expect(page.batches[0]).not.toHaveProperty('rows');
    expect(page.batches[0]).toMatchObject({ contentKind: 'item', counts: { rows: 1, accepted: 1 } });
    expect(page.nextCursor).toBeNull();
  });

  it('filters by contentKind', async () => {
    const page = await listed(su(), '?contentKind=scaffold_prompt');
    expect(page.batches.map((b: { batchId: string }) => b.batchId)).toEqual([batches.prompt]);
    expect(page.batches[0].sourceDeclared).toBeNull();
  });

  it('shows an organization admin their organization’s and the global batches only', async () => {
    const page = await listed(adminA());
    expect(page.batches.map((b: { batchId: string }) => b.batchId)).toEqual([
      batches.global2,
      batches.orgA,
      batches.global1,
    ]);
  });

  it('pages with nextCursor and refuses an unknown cursor (422 invalid_cursor)', async () => {
    const first = await listed(su(), '?limit=3');
    expect(first.batches).toHaveLength(3);
    const second = await listed(su(), `?limit=3&cursor=${first.nextCursor}`);
    expect(second.batches.map((b: { batchId: string }) => b.batchId)).toEqual([batches.global1]);
    expect(second.nextCursor).toBeNull();
    const bad = await su().get('/api/items/import?cursor=bm90LW91cnM');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'invalid_cursor' });
  });
});

describe('GET /api/items/import/{batchId}', () => {
  it('answers the full report of a visible batch', async () => {
    const res = await adminA().get(`/api/items/import/${batches.global1}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().rows).toHaveLength(1);
    expect(res.json().rows[0]).toMatchObject({ entity: 'item', rowIndex: 0, rejectReason: null, unchanged: false });
  });

  it('reads contentKind (default item): a batch of another kind is 404 unless asked with its kind', async () => {
    expect((await su().get(`/api/items/import/${batches.prompt}`)).statusCode).toBe(404);
    const res = await su().get(`/api/items/import/${batches.prompt}?contentKind=scaffold_prompt`);
    expect(res.statusCode).toBe(200);
    expect(res.json().contentKind).toBe('scaffold_prompt');
  });

  it('hides another organization’s batch and unknown ids (404)', async () => {
    expect((await adminA().get(`/api/items/import/${batches.orgB}`)).statusCode).toBe(404);
    expect((await su().get('/api/items/import/bat_AAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await su().get(`/api/items/import/${batches.orgB}`)).statusCode).toBe(200);
  });
});
