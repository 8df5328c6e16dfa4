import { client, useTestWorld } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { takeItemBankPin } from '../commands/takeItemBankPin';
import { type InsertedForm, insertForm } from '../testing/contentFixtures';

const { t, w } = useTestWorld();
let live: InsertedForm;
let pin: string;

beforeAll(async () => {
  live = await insertForm(t.db.sql, {
    organizationId: w.a.id,
    grade: 3,
    window: 'BOY',
    measures: { spelling_choice: 2, text1_comprehension: 3, text2_comprehension: 2 },
  });
  pin = await inTransaction(t.db.sql, ({ sql: tx }) => takeItemBankPin(tx, 'initial'));
}, 120_000);

const replay = (token: string, body: unknown) => client(t.app, token).post('/api/admin/delivery/dry-run-replay', body);
/** Every content row that a replay must leave alone, as one comparable value. */
const contentState = async () => ({
  pins: await t.db.sql`select id from content_item_bank_pins order by id`,
  items: await t.db.sql`select id, form_position, revision, status, updated_at from content_items order by id`,
  forms: await t.db.sql`select id, status from content_screening_forms order by id`,
  cells: await t.db.sql`select id from content_diagnostic_blueprint_cells order by id`,
});

describe('POST /api/admin/delivery/dry-run-replay', () => {
  it('serves the pinned form in catalog measure order and position order, deterministically, writing nothing', async () => {
    const before = await contentState();
    const body = { pinnedItemBankId: pin, formServe: { formId: live.formId } };
    const first = await replay(w.a.adminToken, body);
    expect(first.statusCode, first.body).toBe(200);
    const again = await replay(w.a.adminToken, body);
    expect(again.json()).toEqual(first.json());
    expect(await contentState()).toEqual(before);

    const r = first.json();
    expect(r).toMatchObject({ pinnedItemBankId: pin, formId: live.formId, formStatus: 'operational', unserved: [] });
    expect(typeof r.pinTakenAt).toBe('string');
    const t1 = live.passageIds['text1_comprehension'];
    const t2 = live.passageIds['text2_comprehension'];
    expect(r.served).toEqual([
      ...live.itemIds['text1_comprehension']!.map((itemId, i) => ({
        order: i + 1,
        sectionKey: 'text1',
        measureCode: 'text1_comprehension',
        formPosition: i + 1,
        itemId,
        itemVersion: 1,
        passageId: t1,
        breakBefore: false,
      })),
      ...live.itemIds['text2_comprehension']!.map((itemId, i) => ({
        order: i + 4,
        sectionKey: 'text2',
        measureCode: 'text2_comprehension',
        formPosition: i + 1,
        itemId,
        itemVersion: 1,
        passageId: t2,
        breakBefore: i === 0,
      })),
      ...live.itemIds['spelling_choice']!.map((itemId, i) => ({
        order: i + 6,
        sectionKey: 'spelling',
        measureCode: 'spelling_choice',
        formPosition: i + 1,
        itemId,
        itemVersion: 1,
        passageId: null,
        breakBefore: i === 0,
      })),
    ]);
    expect(r.sections).toEqual([
      { key: 'text1', total: 3 },
      { key: 'text2', total: 2 },
      { key: 'spelling', total: 2 },
    ]);
  });

  it('measureCodes chooses the measures and their order', async () => {
    const res = await replay(w.a.adminToken, {
      pinnedItemBankId: pin,
      formServe: { formId: live.formId, measureCodes: ['spelling_choice', 'text1_comprehension'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().served.map((s: { measureCode: string }) => s.measureCode)).toEqual([
      'spelling_choice',
      'spelling_choice',
      'text1_comprehension',
      'text1_comprehension',
      'text1_comprehension',
    ]);
    expect(res.json().sections).toEqual([
      { key: 'spelling', total: 2 },
      { key: 'text1', total: 3 },
    ]);
  });

  it('an older pin keeps serving the positions it recorded after a move', async () => {
    const form = await insertForm(t.db.sql, {
      organizationId: w.a.id,
      grade: 2,
      window: 'MOY',
      measures: { text1_comprehension: 3 },
    });
    const older = await inTransaction(t.db.sql, ({ sql: tx }) => takeItemBankPin(tx, 'initial'));
    const [a, b, c] = form.itemIds['text1_comprehension'] as [string, string, string];
    const moved = await client(t.app, w.a.adminToken).put(`/api/admin/taqyeem/forms/${form.formId}/positions`, {
      moves: [
        { itemId: a, formPosition: 3, ifMatch: 'r1' },
        { itemId: c, formPosition: 1, ifMatch: 'r1' },
      ],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const newer = moved.json().itemBankPinId;
    const servedIds = async (pinId: string) =>
      (await replay(w.a.adminToken, { pinnedItemBankId: pinId, formServe: { formId: form.formId } }))
        .json()
        .served.map((s: { itemId: string }) => s.itemId);
    expect(await servedIds(older)).toEqual([a, b, c]);
    expect(await servedIds(newer)).toEqual([c, b, a]);
  });

  it('a draft form: nothing is in any pin, so every slot is unserved (not_in_pinned_bank) and served null', async () => {
    const draft = await insertForm(t.db.sql, {
      organizationId: w.a.id,
      grade: 3,
      window: 'BOY',
      status: 'draft',
      measures: { text1_comprehension: 2 },
    });
    const res = await replay(w.a.adminToken, { pinnedItemBankId: pin, formServe: { formId: draft.formId } });
    expect(res.statusCode, res.body).toBe(200);
    const [x, y] = draft.itemIds['text1_comprehension'] as [string, string];
    expect(res.json()).toMatchObject({ formStatus: 'draft', sections: [] });
    expect(res.json().unserved).toEqual([
      { measureCode: 'text1_comprehension', formPosition: 1, itemId: x, reason: 'not_in_pinned_bank' },
      { measureCode: 'text1_comprehension', formPosition: 2, itemId: y, reason: 'not_in_pinned_bank' },
    ]);
    expect(res.json().served).toEqual([
      {
        order: 1,
        sectionKey: 'text1',
        measureCode: 'text1_comprehension',
        formPosition: 1,
        itemId: null,
        itemVersion: null,
        passageId: null,
        breakBefore: false,
      },
      {
        order: 2,
        sectionKey: 'text1',
        measureCode: 'text1_comprehension',
        formPosition: 2,
        itemId: null,
        itemVersion: null,
        passageId: null,
        breakBefore: false,
      },
    ]);
  });

  it('404: an unknown pin, a form of another organization, an organizationId the form does not serve', async () => {
    const formB = await insertForm(t.db.sql, {
      organizationId: w.b.id,
      grade: 1,
      window: 'BOY',
      measures: { word_recognition: 4 },
    });
    const unknownPin = await replay(w.a.adminToken, {
      pinnedItemBankId: 'ibk_AAAAAAAAAAAAAA',
      formServe: { formId: live.formId },
    });
    expect(unknownPin.statusCode).toBe(404);
    expect(unknownPin.json().code).toBe('NOT_FOUND');
    const otherForm = await replay(w.a.adminToken, { pinnedItemBankId: pin, formServe: { formId: formB.formId } });
    expect(otherForm.statusCode).toBe(404);
    const missingForm = await replay(w.a.adminToken, { pinnedItemBankId: pin, formServe: { formId: 'frm_nope' } });
    expect(missingForm.statusCode).toBe(404);
    const otherOrg = await replay(w.a.adminToken, {
      pinnedItemBankId: pin,
      formServe: { formId: live.formId },
      organizationId: w.b.id,
    });
    expect(otherOrg.statusCode).toBe(404);
    // The super-admin sees both, but organization B's sittings are never served organization A's form.
    const notServed = await replay(w.superToken, {
      pinnedItemBankId: pin,
      formServe: { formId: live.formId },
      organizationId: w.b.id,
    });
    expect(notServed.statusCode).toBe(404);
    const superOk = await replay(w.superToken, { pinnedItemBankId: pin, formServe: { formId: formB.formId } });
    expect(superOk.statusCode).toBe(200);
  });

  it('422 catalog_gap for an unknown measure code, duplicate_measure for a repeated one', async () => {
    const gap = await replay(w.a.adminToken, {
      pinnedItemBankId: pin,
      formServe: { formId: live.formId, measureCodes: ['text1_comprehension', 'nope'] },
    });
    expect(gap.statusCode).toBe(422);
    expect(gap.json()).toMatchObject({
      reason: 'catalog_gap',
      details: [{ field: 'formServe.measureCodes[1]', issue: 'not a measure of the catalog' }],
    });
    const twice = await replay(w.a.adminToken, {
      pinnedItemBankId: pin,
      formServe: { formId: live.formId, measureCodes: ['text1_comprehension', 'text1_comprehension'] },
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().reason).toBe('duplicate_measure');
    const teacher = await replay(w.a.teacherToken, { pinnedItemBankId: pin, formServe: { formId: live.formId } });
    expect(teacher.statusCode).toBe(403);
  });
});
