import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import {
  approved,
  freshId,
  imported,
  itemBody,
  passage,
  screeningFormBody,
  trainingItem,
} from '../testing/importTestKit';

const { t, w } = useTestWorld();

const su = () => client(t.app, w.superToken);
const adminA = () => client(t.app, w.a.adminToken);
const approve = (api: ReturnType<typeof client>, batchId: string, body: object = {}) =>
  api.post(`/api/items/import/${batchId}/approve`, body);

const statusOf = async (table: string, ids: string[]) =>
  (await t.db.sql<{ status: string }[]>`select status from ${t.db.sql(table)} where id = any(${ids}) order by id`).map(
    (r) => r.status,
  );
const batchStatus = async (batchId: string) =>
  (await t.db.sql`select status from content_import_batches where id = ${batchId}`)[0]!.status;
const itemIds = (report: { rows: { itemBankId: string | null }[] }) =>
  report.rows.map((r) => r.itemBankId).filter((id): id is string => id !== null);

describe('POST /api/items/import/{batchId}/approve: items', () => {
  it('makes the rows operational, takes a pin and records who approved', async () => {
    const batch = await imported(su(), itemBody([trainingItem(freshId('ap')), trainingItem(freshId('ap'))]));
    const result = await approved(su(), batch.batchId);
    expect(result).toMatchObject({ status: 'approved', retired: [], batchId: batch.batchId });
    expect(result.approvedBy).toEqual(expect.any(Number));
    expect(result.approvedAt).toEqual(expect.any(String));
    expect(await statusOf('content_items', itemIds(batch))).toEqual(['operational', 'operational']);
    const [pin] = await t.db.sql`select cause, entries from content_item_bank_pins where id = ${result.itemBankPinId}`;
    expect(pin!.cause).toBe('import_approved');
    expect(pin!.entries.map((e: { itemId: string }) => e.itemId)).toEqual(expect.arrayContaining(itemIds(batch)));
    const read = await su().get(`/api/items/import/${batch.batchId}`);
    expect(read.json()).toMatchObject({ status: 'approved', approvedBy: result.approvedBy });
  });

  it('retires the earlier operational version when a newer one is approved', async () => {
    const id = freshId('ver');
    const v1 = await imported(su(), itemBody([trainingItem(id)]));
    await approved(su(), v1.batchId);
    const v2 = await imported(su(), itemBody([trainingItem(id, { stem_ar: 'اختر الكلمة المطابقة: باب' })]));
    expect(v2.counts.accepted).toBe(1);
    const result = await approved(su(), v2.batchId);
    expect(result.retired).toEqual(itemIds(v1));
    expect(await statusOf('content_items', itemIds(v1))).toEqual(['retired']);
    const [live] = await t.db.sql`select version, status from content_items where id = ${itemIds(v2)[0]!}`;
    expect(live).toEqual({ version: 2, status: 'operational' });
  });

  it('declines the exceptions and approves the rest', async () => {
    const batch = await imported(su(), itemBody([trainingItem(freshId('ex')), trainingItem(freshId('ex'))]));
    const [kept, declined] = itemIds(batch);
    await approved(su(), batch.batchId, [declined!]);
    expect(await statusOf('content_items', [kept!])).toEqual(['operational']);
    expect(await statusOf('content_items', [declined!])).toEqual(['declined']);
  });

  it('refuses exceptions that are not pending rows of the batch (422 exception_not_in_batch), changing nothing', async () => {
    const other = await imported(su(), itemBody([trainingItem(freshId('o'))]));
    const batch = await imported(su(), itemBody([trainingItem(freshId('nx'))]));
    const res = await approve(su(), batch.batchId, { exceptions: [itemIds(other)[0], 'itm_nope'] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'exception_not_in_batch' });
    expect(res.json().details).toHaveLength(2);
    expect(await statusOf('content_items', itemIds(batch))).toEqual(['pending_review']);
    expect(await batchStatus(batch.batchId)).toBe('pending_review');
  });

  it('answers 409 already_approved the second time', async () => {
    const batch = await imported(su(), itemBody([trainingItem(freshId('tw'))]));
    await approved(su(), batch.batchId);
    const res = await approve(su(), batch.batchId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'already_approved' });
  });

  it('lets exactly one of two concurrent approvals run', async () => {
    const batch = await imported(su(), itemBody([trainingItem(freshId('cc'))]));
    const [a, b] = await Promise.all([approve(su(), batch.batchId), approve(su(), batch.batchId)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json().reason).toBe('already_approved');
  });

  it('refuses an older version while a newer one is operational (409 newer_version_operational)', async () => {
    const id = freshId('old');
    const v1 = await imported(su(), itemBody([trainingItem(id)]));
    await approved(su(), v1.batchId);
    const v2 = await imported(su(), itemBody([trainingItem(id, { stem_ar: 'اختر الكلمة المطابقة: باب' })]));
    // An edit of the live v1 makes v3 operational while v2 still waits.
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/items/${itemIds(v1)[0]}`,
      headers: { authorization: `Bearer ${w.superToken}`, 'if-match': '"r1"' },
      payload: { stemAr: 'اختر الكلمة المطابقة: بيت جميل' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const res = await approve(su(), v2.batchId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'newer_version_operational' });
    expect(await statusOf('content_items', itemIds(v2))).toEqual(['pending_review']);
    expect(await batchStatus(v2.batchId)).toBe('pending_review');
  });

  it('approves unchanged rows of a re-import whose stored version still waits', async () => {
    const body = itemBody([trainingItem(freshId('re'))]);
    const first = await imported(su(), body);
    const again = await imported(su(), body);
    expect(again.rows[0].unchanged).toBe(true);
    await approved(su(), again.batchId);
    expect(await statusOf('content_items', itemIds(first))).toEqual(['operational']);
    const later = await approved(su(), first.batchId);
    expect(later.itemBankPinId).toBeNull();
  });
});

describe('POST /api/items/import/{batchId}/approve: passages, prompts, word lists', () => {
  it('refuses items whose passage waits in another batch (409 passage_not_operational)', async () => {
    const p = freshId('psg');
    const bundle = await imported(
      su(),
      itemBody([], { contentKind: 'content_bundle', items: undefined, passages: [passage(p)] }),
    );
    const linked = { item_pattern: 'passage_literal', sub_skill_id: 'lc_explicit_detail', passage_external_id: p };
    const items = await imported(su(), itemBody([trainingItem(freshId('pi'), linked)]));
    const res = await approve(su(), items.batchId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'passage_not_operational' });
    expect(await statusOf('content_items', itemIds(items))).toEqual(['pending_review']);
    await approved(su(), bundle.batchId);
    await approved(su(), items.batchId);
    expect(await statusOf('content_items', itemIds(items))).toEqual(['operational']);
  });

  it('approves prompts and retires their earlier version', async () => {
    const id = freshId('sp');
    const prompt = (text: string) => ({
      contentKind: 'scaffold_prompt',
      scaffoldPrompts: [{ external_id: id, sub_skill_id: 'ls_short_vowels', tier: 1, prompt_ar: text }],
    });
    const v1 = await imported(su(), prompt('انطق الحرف مع حركته'));
    const r1 = await approved(su(), v1.batchId);
    expect(r1.itemBankPinId).toBeNull();
    const v2 = await imported(su(), prompt('انطق الحرف مع حركته مرة أخرى'));
    expect(v2.counts.accepted).toBe(1);
    const r2 = await approved(su(), v2.batchId);
    expect(r2.retired).toEqual([v1.rows[0].scaffoldPromptId]);
    expect(await statusOf('content_scaffold_prompts', [v2.rows[0].scaffoldPromptId])).toEqual(['operational']);
  });

  it('publishes word lists, retires the earlier live version, and leaves an excepted list draft', async () => {
    const words = ['بَيْت', 'قَلَم', 'شَمْس', 'وَرْدَة', 'كِتَاب', 'بَاب', 'سَمَك', 'جَمَل', 'قَمَر', 'نَهْر'];
    const list = (externalId: string, w2: string[]) => ({
      external_id: externalId,
      grade: 1,
      skill_id: 'familiar_word_reading',
      words: w2,
    });
    const id = freshId('wl');
    const v1 = await imported(adminA(), { contentKind: 'word_list', wordLists: [list(id, words)] });
    await approved(adminA(), v1.batchId);
    const v2 = await imported(adminA(), {
      contentKind: 'word_list',
      wordLists: [list(id, [...words, 'تُفَّاح']), list(freshId('wl'), words)],
    });
    const [newer, excepted] = v2.rows.map((r: { wordListId: string }) => r.wordListId);
    const result = await approved(adminA(), v2.batchId, [excepted]);
    expect(result.retired).toEqual([v1.rows[0].wordListId]);
    const rows = await t.db.sql`
      select id, status, published_at is not null as published from content_word_lists
      where id = any(${[v1.rows[0].wordListId, newer, excepted]})`;
    const byId = Object.fromEntries(rows.map((r) => [r.id, [r.status, r.published]]));
    expect(byId).toEqual({
      [v1.rows[0].wordListId]: ['retired', true],
      [newer]: ['operational', true],
      [excepted]: ['draft', false],
    });
  });
});

describe('POST /api/items/import/{batchId}/approve: screening forms', () => {
  it('makes the form and its items operational, then a new version retires them', async () => {
    const formId = freshId('form');
    const v1 = await imported(su(), screeningFormBody(formId));
    const r1 = await approved(su(), v1.batchId);
    expect(r1.retired).toEqual([]);
    expect(r1.itemBankPinId).toEqual(expect.any(String));
    expect(await statusOf('content_screening_forms', [v1.screeningFormId])).toEqual(['operational']);
    expect(new Set(await statusOf('content_items', itemIds(v1)))).toEqual(new Set(['operational']));

    const v2 = await imported(su(), screeningFormBody(formId, { stemSuffix: '؟' }));
    const r2 = await approved(su(), v2.batchId);
    expect(new Set(r2.retired)).toEqual(new Set([v1.screeningFormId, ...itemIds(v1)]));
    expect(await statusOf('content_screening_forms', [v1.screeningFormId, v2.screeningFormId])).toEqual(
      [v1.screeningFormId, v2.screeningFormId]
        .sort()
        .map((id) => (id === v1.screeningFormId ? 'retired' : 'operational')),
    );
    expect(r2.itemBankPinId).not.toBe(r1.itemBankPinId);
  });

  it('refuses exceptions on a form (422 form_is_one_unit), changing nothing', async () => {
    const batch = await imported(su(), screeningFormBody(freshId('unit')));
    const res = await approve(su(), batch.batchId, { exceptions: [itemIds(batch)[0]] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'form_is_one_unit' });
    expect(await statusOf('content_screening_forms', [batch.screeningFormId])).toEqual(['draft']);
    expect(await batchStatus(batch.batchId)).toBe('pending_review');
  });

  it('refuses a rejected form batch (409 form_rejected)', async () => {
    const body = screeningFormBody(freshId('rej'));
    (body.items as object[]).pop();
    const batch = await imported(su(), body);
    expect(batch.formRejected).toBe(true);
    const res = await approve(su(), batch.batchId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'form_rejected' });
  });

  it('refuses an older form version once a newer one is live (409 newer_version_operational)', async () => {
    const formId = freshId('two');
    const v1 = await imported(su(), screeningFormBody(formId));
    const v2 = await imported(su(), screeningFormBody(formId, { stemSuffix: '؟' }));
    await approved(su(), v2.batchId);
    const res = await approve(su(), v1.batchId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'newer_version_operational' });
    expect(await statusOf('content_screening_forms', [v1.screeningFormId])).toEqual(['draft']);
    expect(await statusOf('content_screening_forms', [v2.screeningFormId])).toEqual(['operational']);
  });
});

describe('POST /api/items/import/{batchId}/approve: who may approve', () => {
  it('lets an organization admin approve their own batch, not a global one (403) nor another organization’s (404)', async () => {
    const own = await imported(adminA(), itemBody([trainingItem(freshId('own'))]));
    const global = await imported(su(), itemBody([trainingItem(freshId('glob'))]));
    const denied = await approve(adminA(), global.batchId);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('PERMISSION_DENIED');
    const hidden = await approve(client(t.app, w.b.adminToken), own.batchId);
    expect(hidden.statusCode).toBe(404);
    expect(await batchStatus(own.batchId)).toBe('pending_review');
    expect(await batchStatus(global.batchId)).toBe('pending_review');
    await approved(adminA(), own.batchId);
    expect((await approve(su(), 'bat_AAAAAAAAAAAAAA')).statusCode).toBe(404);
  });
});
