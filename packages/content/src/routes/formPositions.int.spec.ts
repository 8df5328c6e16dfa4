import { client, useTestWorld } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { describe, expect, it } from 'vitest';
import { formPositions, type InsertedForm, insertForm } from '../testing/contentFixtures';

const { t, w } = useTestWorld();

const url = (formId: string) => `/api/admin/taqyeem/forms/${formId}/positions`;
const newForm = (over: Partial<Parameters<typeof insertForm>[1]> = {}) =>
  insertForm(t.db.sql, {
    organizationId: w.a.id,
    grade: 3,
    window: 'BOY',
    measures: { text1_comprehension: 3, spelling_choice: 3 },
    ...over,
  });
const pinCount = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from content_item_bank_pins`)[0]!.n;
/** Positions and revisions of every item of the form: what a refused request must leave untouched. */
const snapshot = async (formId: string) =>
  t.db.sql`select id, measure_code, form_position, revision from content_items
           where screening_form_id = ${formId} order by id`;
// Every form here holds at least three questions per measure (four in the rotation test).
const idsOf = (form: InsertedForm, measure = 'text1_comprehension') =>
  form.itemIds[measure] as [string, string, string, string];

describe('PUT /api/admin/taqyeem/forms/{formId}/positions', () => {
  it('swaps two questions of an operational form, bumps their ETags and takes an item-bank pin', async () => {
    const form = await newForm();
    const [a, b, c] = idsOf(form);
    const before = await pinCount();
    const res = await client(t.app, w.a.adminToken).put(url(form.formId), {
      moves: [
        { itemId: a, formPosition: 2, ifMatch: 'r1' },
        { itemId: b, formPosition: 1, ifMatch: 'r1' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ formId: form.formId, measureCode: 'text1_comprehension' });
    expect(body.items).toEqual([
      { itemId: b, formPosition: 1, etag: 'r2' },
      { itemId: a, formPosition: 2, etag: 'r2' },
      { itemId: c, formPosition: 3, etag: 'r1' },
    ]);
    expect(body.itemBankPinId).toMatch(/^ibk_/);
    expect(await pinCount()).toBe(before + 1);
    const [pin] = await t.db.sql<{ cause: string; entries: { itemId: string; formPosition: number }[] }[]>`
      select cause, entries from content_item_bank_pins where id = ${body.itemBankPinId}`;
    expect(pin!.cause).toBe('positions_moved');
    expect(pin!.entries.find((e) => e.itemId === a)?.formPosition).toBe(2);
    expect(pin!.entries.find((e) => e.itemId === b)?.formPosition).toBe(1);
    // The other measure did not move.
    expect((await formPositions(t.db.sql, form.formId, 'spelling_choice')).map((r) => r.revision)).toEqual([1, 1, 1]);
  });

  it('rotates three positions (a cycle needs the parked step) and answers the whole measure', async () => {
    const form = await newForm({ measures: { text1_comprehension: 4 } });
    const [a, b, c, d] = idsOf(form);
    const res = await client(t.app, w.a.adminToken).put(url(form.formId), {
      moves: [
        { itemId: a, formPosition: 2, ifMatch: 'r1' },
        { itemId: b, formPosition: 3, ifMatch: 'r1' },
        { itemId: c, formPosition: 1, ifMatch: 'r1' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((i: { itemId: string }) => i.itemId)).toEqual([c, a, b, d]);
    expect((await formPositions(t.db.sql, form.formId, 'text1_comprehension')).map((r) => r.id)).toEqual([c, a, b, d]);
  });

  it('a draft form moves without a pin (itemBankPinId null)', async () => {
    const form = await newForm({ status: 'draft' });
    const [a, b] = idsOf(form);
    const before = await pinCount();
    const res = await client(t.app, w.a.adminToken).put(url(form.formId), {
      moves: [
        { itemId: a, formPosition: 2, ifMatch: 'r1' },
        { itemId: b, formPosition: 1, ifMatch: 'r1' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().itemBankPinId).toBeNull();
    expect(await pinCount()).toBe(before);
  });

  it('0 or 61 moves is 422 VALIDATION_ERROR', async () => {
    const form = await newForm();
    const [a] = idsOf(form);
    const none = await client(t.app, w.a.adminToken).put(url(form.formId), { moves: [] });
    expect(none.statusCode).toBe(422);
    expect(none.json().code).toBe('VALIDATION_ERROR');
    const many = Array.from({ length: 61 }, () => ({ itemId: a, formPosition: 1, ifMatch: 'r1' }));
    const tooMany = await client(t.app, w.a.adminToken).put(url(form.formId), { moves: many });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().code).toBe('VALIDATION_ERROR');
    expect(tooMany.json().reason).toBeUndefined();
  });

  describe('refusals write nothing', () => {
    const refused = async (
      form: InsertedForm,
      moves: { itemId: string; formPosition: number; ifMatch: string }[],
      status: number,
      reason: string,
    ) => {
      const before = await snapshot(form.formId);
      const pins = await pinCount();
      const res = await client(t.app, w.a.adminToken).put(url(form.formId), { moves });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().reason).toBe(reason);
      expect(await snapshot(form.formId)).toEqual(before);
      expect(await pinCount()).toBe(pins);
      return res.json();
    };

    it('422 item_not_in_form: an item of another form', async () => {
      const form = await newForm();
      const other = await newForm();
      const [a] = idsOf(form);
      const [x] = idsOf(other);
      const body = await refused(
        form,
        [
          { itemId: a, formPosition: 1, ifMatch: 'r1' },
          { itemId: x, formPosition: 2, ifMatch: 'r1' },
        ],
        422,
        'item_not_in_form',
      );
      expect(body.details).toEqual([{ field: 'moves[1].itemId', issue: 'not an item of this form' }]);
    });

    it('422 cross_measure: items of two measures', async () => {
      const form = await newForm();
      await refused(
        form,
        [
          { itemId: idsOf(form)[0]!, formPosition: 1, ifMatch: 'r1' },
          { itemId: idsOf(form, 'spelling_choice')[0]!, formPosition: 1, ifMatch: 'r1' },
        ],
        422,
        'cross_measure',
      );
    });

    it('412 stale: an ifMatch that is not the current ETag', async () => {
      const form = await newForm();
      const [a, b] = idsOf(form);
      const body = await refused(
        form,
        [
          { itemId: a, formPosition: 2, ifMatch: 'r1' },
          { itemId: b, formPosition: 1, ifMatch: 'r7' },
        ],
        412,
        'stale',
      );
      expect(body.code).toBe('PRECONDITION_FAILED');
    });

    it('422 not_a_permutation: a position taken twice, a position past n, an item moved twice', async () => {
      const form = await newForm();
      const [a, b] = idsOf(form);
      await refused(form, [{ itemId: a, formPosition: 2, ifMatch: 'r1' }], 422, 'not_a_permutation');
      await refused(
        form,
        [
          { itemId: a, formPosition: 4, ifMatch: 'r1' },
          { itemId: b, formPosition: 1, ifMatch: 'r1' },
        ],
        422,
        'not_a_permutation',
      );
      await refused(
        form,
        [
          { itemId: a, formPosition: 2, ifMatch: 'r1' },
          { itemId: b, formPosition: 1, ifMatch: 'r1' },
          { itemId: a, formPosition: 1, ifMatch: 'r1' },
        ],
        422,
        'not_a_permutation',
      );
    });
  });

  describe('scope', () => {
    const swap = (form: InsertedForm) => ({
      moves: [
        { itemId: idsOf(form)[0]!, formPosition: 2, ifMatch: 'r1' },
        { itemId: idsOf(form)[1]!, formPosition: 1, ifMatch: 'r1' },
      ],
    });

    it('another organization’s form and an unknown form are 404', async () => {
      const formB = await newForm({ organizationId: w.b.id });
      const before = await snapshot(formB.formId);
      const other = await client(t.app, w.a.adminToken).put(url(formB.formId), swap(formB));
      expect(other.statusCode).toBe(404);
      expect(other.json().code).toBe('NOT_FOUND');
      expect(await snapshot(formB.formId)).toEqual(before);
      const missing = await client(t.app, w.a.adminToken).put(url('frm_AAAAAAAAAAAAAA'), swap(formB));
      expect(missing.statusCode).toBe(404);
    });

    it('an organization admin on a global form is 403; the super-admin moves it', async () => {
      const global = await newForm({ organizationId: null });
      const before = await snapshot(global.formId);
      const denied = await client(t.app, w.a.adminToken).put(url(global.formId), swap(global));
      expect(denied.statusCode).toBe(403);
      expect(denied.json().code).toBe('PERMISSION_DENIED');
      expect(await snapshot(global.formId)).toEqual(before);
      const ok = await client(t.app, w.superToken).put(url(global.formId), swap(global));
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('a teacher is 403 (no RUN_BACKOFFICE)', async () => {
      const form = await newForm();
      const res = await client(t.app, w.a.teacherToken).put(url(form.formId), swap(form));
      expect(res.statusCode).toBe(403);
    });
  });

  describe('concurrency', () => {
    const isPermutation = async (formId: string) =>
      (await formPositions(t.db.sql, formId, 'text1_comprehension')).map((r) => r.form_position);

    it('409 concurrent_move while another transaction holds the form', async () => {
      const form = await newForm();
      const [a, b] = idsOf(form);
      const holder = t.db.connectAgain();
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holding = inTransaction(holder, async ({ sql: tx }) => {
        await tx`select id from content_screening_forms where id = ${form.formId} for update`;
        locked();
        await released;
      });
      await isLocked;
      try {
        const before = await snapshot(form.formId);
        const res = await client(t.app, w.a.adminToken).put(url(form.formId), {
          moves: [
            { itemId: a, formPosition: 2, ifMatch: 'r1' },
            { itemId: b, formPosition: 1, ifMatch: 'r1' },
          ],
        });
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'concurrent_move' });
        expect(await snapshot(form.formId)).toEqual(before);
      } finally {
        release();
        await holding;
      }
    });

    it('412 stale for a second request built on the ETags the first one changed', async () => {
      const form = await newForm();
      const [a, b, c] = idsOf(form);
      const first = await client(t.app, w.a.adminToken).put(url(form.formId), {
        moves: [
          { itemId: a, formPosition: 2, ifMatch: 'r1' },
          { itemId: b, formPosition: 1, ifMatch: 'r1' },
        ],
      });
      expect(first.statusCode).toBe(200);
      const second = await client(t.app, w.a.adminToken).put(url(form.formId), {
        moves: [
          { itemId: a, formPosition: 3, ifMatch: 'r1' },
          { itemId: c, formPosition: 2, ifMatch: 'r1' },
        ],
      });
      expect(second.statusCode).toBe(412);
      expect(second.json().reason).toBe('stale');
      expect(await isPermutation(form.formId)).toEqual([1, 2, 3]);
      expect((await formPositions(t.db.sql, form.formId, 'text1_comprehension')).map((r) => r.id)).toEqual([b, a, c]);
    });

    // Which loser (409 while the winner holds the lock, 412 once it committed) depends on timing; both are legal.
    it('two real concurrent moves: exactly one wins, the other is 409 or 412, positions stay 1..n', async () => {
      for (let round = 0; round < 8; round++) {
        const form = await newForm();
        const [a, b, c] = idsOf(form);
        const admin = client(t.app, w.a.adminToken);
        const responses = await Promise.all([
          admin.put(url(form.formId), {
            moves: [
              { itemId: a, formPosition: 2, ifMatch: 'r1' },
              { itemId: b, formPosition: 1, ifMatch: 'r1' },
            ],
          }),
          admin.put(url(form.formId), {
            moves: [
              { itemId: a, formPosition: 3, ifMatch: 'r1' },
              { itemId: c, formPosition: 1, ifMatch: 'r1' },
              { itemId: b, formPosition: 2, ifMatch: 'r1' },
            ],
          }),
        ]);
        const statuses = responses.map((r) => r.statusCode).sort();
        expect(
          statuses.filter((s) => s === 200),
          responses.map((r) => r.body).join(' | '),
        ).toHaveLength(1);
        const loser = responses.find((r) => r.statusCode !== 200)!;
        expect([409, 412]).toContain(loser.statusCode);
        expect(loser.json().reason).toBe(loser.statusCode === 409 ? 'concurrent_move' : 'stale');
        expect(await isPermutation(form.formId)).toEqual([1, 2, 3]);
        const winner = responses.find((r) => r.statusCode === 200)!;
        expect((await formPositions(t.db.sql, form.formId, 'text1_comprehension')).map((r) => r.id)).toEqual(
          winner.json().items.map((i: { itemId: string }) => i.itemId),
        );
      }
    });
  });
});
