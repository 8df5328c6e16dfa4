import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { approved, freshId, imported, itemBody, screeningFormBody, trainingItem } from '../testing/importTestKit';

const { t, w } = useTestWorld();
let form: { screeningFormId: string; rows: { itemBankId: string | null }[] };

beforeAll(async () => {
  form = await imported(su(), screeningFormBody(freshId('form')));
  await approved(su(), (form as unknown as { batchId: string }).batchId);
}, 120_000);

function su() {
  return client(t.app, w.superToken);
}
const adminA = () => client(t.app, w.a.adminToken);
const STUDENT_KEYS = ['id', 'options', 'passageId', 'stemAr', 'version'];
const formItemIds = () => form.rows.map((r) => r.itemBankId).filter((id): id is string => id !== null);

async function oneItem(api: ReturnType<typeof client>, over: Record<string, unknown> = {}, approve = false) {
  const batch = await imported(api, itemBody([trainingItem(freshId('it'), over)]));
  if (approve) await approved(api, batch.batchId);
  return batch.rows[0].itemBankId as string;
}

const patch = (id: string, body: object, ifMatch: string | null = '"r1"', token = w.superToken) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/items/${id}`,
    headers: { authorization: `Bearer ${token}`, ...(ifMatch === null ? {} : { 'if-match': ifMatch }) },
    payload: body,
  });
const rowOf = async (id: string) =>
  (await t.db.sql`select status, version, revision, stem_ar from content_items where id = ${id}`)[0];

describe('GET /api/items: the student projection', () => {
  it('shows a screening item without its correct option, pattern, level or sub-skill', async () => {
    const res = await su().get(`/api/items?screeningFormId=${form.screeningFormId}`);
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items).toHaveLength(7);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(STUDENT_KEYS);
    for (const leak of ['correct', 'itemPattern', 'subSkill', 'trainingLevel', 'contentRole', 'measure', 'hint']) {
      expect(res.body).not.toContain(leak);
    }
    const one = await su().get(`/api/items/${formItemIds()[0]}`);
    expect(Object.keys(one.json()).sort()).toEqual(STUDENT_KEYS);
    expect(one.body).not.toContain('correct');
  });

  it('adds the authoring fields with view=authoring', async () => {
    const res = await su().get(`/api/items/${formItemIds()[0]}?view=authoring`);
    expect(res.json()).toMatchObject({
      contentRole: 'screening',
      screeningFormId: form.screeningFormId,
      contentPurpose: 'diagnostic',
      correctOptionKey: 'a',
      measureCode: 'word_recognition',
      formPosition: 1,
      status: 'operational',
      revision: 1,
      etag: 'r1',
    });
    expect(res.headers.etag).toBe('"r1"');
  });
});

describe('GET /api/items: filters, pages and scope', () => {
  it('lists operational items by default and filters by every named field', async () => {
    const pending = await oneItem(su(), { training_level: 4 });
    const live = await oneItem(
      su(),
      { training_level: 3, sub_skill_id: 'ls_long_vowels', item_pattern: 'vowel_choice' },
      true,
    );
    const ids = async (query: string) =>
      (await su().get(`/api/items?limit=100&${query}`)).json().items.map((i: { id: string }) => i.id);
    expect(await ids('')).not.toContain(pending);
    expect(await ids('status=pending_review')).toContain(pending);
    expect(await ids('status=all&trainingLevel=4')).toEqual([pending]);
    expect(await ids('trainingLevel=3')).toEqual([live]);
    expect(await ids('subSkillId=ls_long_vowels')).toEqual([live]);
    expect(await ids('contentRole=target_training&grade=1')).toEqual([live]);
    expect((await ids('measureCode=word_recognition')).sort()).toEqual(formItemIds().slice(0, 4).sort());
    expect(await ids('grade=3')).toEqual([]);
  });

  it('pages with nextCursor and refuses an unknown cursor (422 invalid_cursor)', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await su().get(
        `/api/items?screeningFormId=${form.screeningFormId}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.json().items.map((i: { id: string }) => i.id));
      cursor = page.json().nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(formItemIds().sort());
    const bad = await su().get('/api/items?cursor=not-a-cursor');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'invalid_cursor' });
  });

  it('shows an organization admin their own and global items, never another organization’s (404)', async () => {
    const own = await oneItem(adminA(), {}, true);
    const listA = (await adminA().get('/api/items?limit=100')).json().items.map((i: { id: string }) => i.id);
    expect(listA).toEqual(expect.arrayContaining([own, formItemIds()[0]]));
    const b = client(t.app, w.b.adminToken);
    const listB = (await b.get('/api/items?limit=100')).json().items.map((i: { id: string }) => i.id);
    expect(listB).not.toContain(own);
    expect((await b.get(`/api/items/${own}`)).statusCode).toBe(404);
    expect((await su().get('/api/items/itm_AAAAAAAAAAAAAA')).statusCode).toBe(404);
  });
});

describe('PATCH /api/items/{id}', () => {
  it('edits a pending item in place (revision + 1) and sends the new ETag', async () => {
    const id = await oneItem(su());
    const res = await patch(id, { stemAr: 'اختر الكلمة المطابقة: بنت', correctOptionKey: 'b' }, 'r1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, revision: 2, etag: 'r2', madeVersion: false, itemBankPinId: null });
    expect(res.headers.etag).toBe('"r2"');
    expect(await rowOf(id)).toMatchObject({ status: 'pending_review', version: 1, revision: 2 });
  });

  it('answers 412 stale on an old ETag, and 428 without one, changing nothing', async () => {
    const id = await oneItem(su());
    await patch(id, { hintAr: 'انظر إلى الحرف الأخير' });
    const stale = await patch(id, { stemAr: 'اختر الكلمة المطابقة: بيض' }, '"r1"');
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ code: 'PRECONDITION_FAILED', reason: 'stale' });
    const missing = await patch(id, { stemAr: 'اختر الكلمة المطابقة: بيض' }, null);
    expect(missing.statusCode).toBe(428);
    expect(missing.json()).toMatchObject({ code: 'PRECONDITION_REQUIRED', reason: 'if_match_required' });
    const staleInBody = await patch(id, { stemAr: 'اختر الكلمة المطابقة: بيض', ifMatch: 'r1' }, null);
    expect(staleInBody.statusCode).toBe(412);
    expect(await rowOf(id)).toMatchObject({ revision: 2, stem_ar: 'اختر الكلمة المطابقة: بيت' });
    const inBody = await patch(id, { stemAr: 'اختر الكلمة المطابقة: بيض', ifMatch: '"r2"' }, null);
    expect(inBody.statusCode).toBe(200);
    expect(await rowOf(id)).toMatchObject({ revision: 3, stem_ar: 'اختر الكلمة المطابقة: بيض' });
  });

  it('makes a new operational version of a live item, retires the source and takes a pin', async () => {
    const id = await oneItem(su(), {}, true);
    const res = await patch(id, { explanationAr: 'الكلمة المطابقة هي بيت' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ madeVersion: true, version: 2, status: 'operational', revision: 1 });
    expect(body.id).not.toBe(id);
    expect(await rowOf(id)).toMatchObject({ status: 'retired' });
    const [pin] = await t.db.sql`select cause, entries from content_item_bank_pins where id = ${body.itemBankPinId}`;
    expect(pin!.cause).toBe('item_edited');
    const pinned = pin!.entries.map((e: { itemId: string }) => e.itemId);
    expect(pinned).toContain(body.id);
    expect(pinned).not.toContain(id);
  });

  it('never duplicates or live-edits a screening item (422 form_item_not_duplicable)', async () => {
    const live = formItemIds()[0]!;
    const res = await patch(live, { stemAr: 'اختر الكلمة المطابقة: باب' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'form_item_not_duplicable' });
    const draft = await imported(su(), screeningFormBody(freshId('draft')));
    const pendingScreening = draft.rows[1].itemBankId;
    const dup = await patch(pendingScreening, { stemAr: 'اختر الكلمة المطابقة: باب', saveAs: 'new_version' });
    expect(dup.json()).toMatchObject({ reason: 'form_item_not_duplicable' });
    expect(await rowOf(live)).toMatchObject({ status: 'operational', revision: 1 });
    const inPlace = await patch(pendingScreening, { stemAr: 'اختر الكلمة المطابقة: باب' });
    expect(inPlace.statusCode).toBe(200);
    expect(inPlace.json()).toMatchObject({ revision: 2, madeVersion: false });
  });

  it('refuses a retired item (409 invalid_state) and a saveAs that contradicts the rule (422 save_as_mismatch)', async () => {
    const id = await oneItem(su(), {}, true);
    const edited = await patch(id, { hintAr: 'اقرأ الكلمة بصوت' });
    const retired = await patch(id, { hintAr: 'اقرأ الكلمة مرة أخرى' });
    expect(retired.statusCode).toBe(409);
    expect(retired.json()).toMatchObject({ code: 'CONFLICT', reason: 'invalid_state' });
    const inPlaceLive = await patch(edited.json().id, { hintAr: 'اقرأ الكلمة مرة أخرى', saveAs: 'in_place' });
    expect(inPlaceLive.statusCode).toBe(422);
    expect(inPlaceLive.json().reason).toBe('save_as_mismatch');
    const pending = await oneItem(su());
    const newPending = await patch(pending, { hintAr: 'اقرأ الكلمة مرة أخرى', saveAs: 'new_version' });
    expect(newPending.json().reason).toBe('save_as_mismatch');
    expect(await rowOf(pending)).toMatchObject({ revision: 1 });
  });

  it('checks options, the correct key, the language filter and that something changes', async () => {
    const id = await oneItem(su());
    const refused = async (body: object, reason: string) => {
      const res = await patch(id, body, 'r1');
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason });
      return res.json();
    };
    await refused({ correctOptionKey: 'z' }, 'correct_option_missing');
    await refused(
      {
        options: [
          { key: 'b', textAr: 'بنت' },
          { key: 'c', textAr: 'بيض' },
        ],
      },
      'correct_option_missing',
    );
    await refused(
      {
        options: [
          { key: 'a', textAr: 'بيت' },
          { key: 'a', textAr: 'بنت' },
        ],
      },
      'duplicate_option_keys',
    );
    const blocked = await refused({ stemAr: 'هذا الطالب ضعيف في القراءة' }, 'language_safety_blocked');
    expect(blocked.details).toEqual([{ field: 'stemAr', issue: expect.any(String) }]);
    await refused({ saveAs: 'in_place' }, 'nothing_to_change');
    expect(await rowOf(id)).toMatchObject({ revision: 1 });
  });

  it('lets an organization admin edit their items, not global ones (403) nor another organization’s (404)', async () => {
    const global = await oneItem(su());
    const denied = await patch(global, { hintAr: 'اقرأ الكلمة' }, 'r1', w.a.adminToken);
    expect(denied.statusCode).toBe(403);
    const own = await oneItem(adminA());
    const hidden = await patch(own, { hintAr: 'اقرأ الكلمة' }, 'r1', w.b.adminToken);
    expect(hidden.statusCode).toBe(404);
    expect(await rowOf(own)).toMatchObject({ revision: 1 });
    const ok = await patch(own, { hintAr: 'اقرأ الكلمة' }, 'r1', w.a.adminToken);
    expect(ok.statusCode).toBe(200);
  });
});
