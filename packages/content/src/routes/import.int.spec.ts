import { client, createTestApp, useTestWorld } from '@qiraa/app/testing';
import { loadLanguageSafety, reloadLanguageSafety } from '@qiraa/language-safety';
import { describe, expect, it } from 'vitest';
import {
  countOf,
  freshId,
  imported,
  itemBody,
  OPTIONS,
  passage,
  SIGNOFF,
  SOURCE,
  STEM,
  screeningFormBody,
  trainingItem,
} from '../testing/importTestKit';

const { t, w } = useTestWorld();

const su = () => client(t.app, w.superToken);
const adminA = () => client(t.app, w.a.adminToken);
const BLOCKED = 'هذا الطالب ضعيف في القراءة';

const versionsOf = async (table: string, externalId: string) =>
  (
    await t.db.sql<{ n: number }[]>`select count(*)::int as n from ${t.db.sql(table)} where external_id = ${externalId}`
  )[0]!.n;

async function contentRows() {
  const tables = ['content_import_batches', 'content_items', 'content_passages', 'content_screening_forms'];
  return Object.fromEntries(await Promise.all(tables.map(async (x) => [x, await countOf(t.db.sql, x)])));
}

describe('fixtures', () => {
  it('pass the general language-safety tier, and the blocked sample does not', async () => {
    const filter = await loadLanguageSafety(t.db.sql);
    const texts = [STEM, ...OPTIONS.map((o) => o.text_ar), 'انظر إلى الحرف الأول', 'في الحديقة'];
    for (const text of texts) expect(filter.check(text, 'general').kind, text).toBe('pass');
    expect(filter.check(BLOCKED, 'general').kind).toBe('rewrite');
  });
});

describe('POST /api/items/import: items', () => {
  it('stores accepted rows pending_review as version 1 with the service-set purpose', async () => {
    const ids = [freshId('it'), freshId('it')];
    const report = await imported(
      su(),
      itemBody([trainingItem(ids[0]!), trainingItem(ids[1]!, { training_level: 2 })]),
    );
    expect(report).toMatchObject({
      contentKind: 'item',
      organizationId: null,
      sourceDeclared: SOURCE,
      agreementSignoff: SIGNOFF,
      status: 'pending_review',
      counts: { rows: 2, accepted: 2, rejected: 0, unchanged: 0 },
      approvedAt: null,
      approvedBy: null,
      retired: [],
    });
    expect(report).not.toHaveProperty('formProblems');
    const stored = await t.db.sql`
      select external_id, version, status, content_purpose, content_role, source_declared, import_batch_id
      from content_items where external_id = any(${ids}) order by external_id`;
    expect(stored.map((r) => [r.version, r.status, r.content_purpose, r.content_role])).toEqual([
      [1, 'pending_review', 'training', 'target_training'],
      [1, 'pending_review', 'training', 'target_training'],
    ]);
    expect(stored[0]!.source_declared).toEqual(SOURCE);
    expect(report.rows.map((r: { itemBankId: string }) => r.itemBankId)).toHaveLength(2);
  });

  it('is idempotent: the same rows again are unchanged, point at the stored ids and store nothing', async () => {
    const body = itemBody([trainingItem(freshId('idem')), trainingItem(freshId('idem'))]);
    const first = await imported(su(), body);
    const before = await countOf(t.db.sql, 'content_items');
    const second = await imported(su(), body);
    expect(await countOf(t.db.sql, 'content_items')).toBe(before);
    expect(second.counts).toEqual({ rows: 2, accepted: 0, rejected: 0, unchanged: 2 });
    expect(second.rows.map((r: { itemBankId: string }) => r.itemBankId)).toEqual(
      first.rows.map((r: { itemBankId: string }) => r.itemBankId),
    );
    expect(second.rows.every((r: { unchanged: boolean }) => r.unchanged)).toBe(true);
  });

  it('rejects a changed row while its newest version waits for review (pending_version_exists)', async () => {
    const id = freshId('pend');
    await imported(su(), itemBody([trainingItem(id)]));
    const again = await imported(su(), itemBody([trainingItem(id, { stem_ar: 'اختر الكلمة المطابقة: بنت' })]));
    expect(again.rows[0]).toMatchObject({ rejectReason: 'pending_version_exists', itemBankId: null });
    const n = await versionsOf('content_items', id);
    expect(n).toBe(1);
  });

  it('imports an organization admin’s batch into their organization; another organization is 404', async () => {
    const report = await imported(adminA(), itemBody([trainingItem(freshId('org'))]));
    expect(report.organizationId).toBe(w.a.id);
    const before = await contentRows();
    const res = await adminA().post('/api/items/import', {
      ...itemBody([trainingItem(freshId('org'))]),
      organizationId: w.b.id,
    });
    expect(res.statusCode).toBe(404);
    expect(await contentRows()).toEqual(before);
    const bySuper = await imported(su(), { ...itemBody([trainingItem(freshId('org'))]), organizationId: w.b.id });
    expect(bySuper.organizationId).toBe(w.b.id);
  });

  it('gives every failing item row its reason and stores only the clean rows', async () => {
    const id = (tag: string) => freshId(tag);
    const dup = id('dup');
    const cases: [string, Record<string, unknown>][] = [
      ['unknown_sub_skill', trainingItem(id('r'), { sub_skill_id: 'no_such_skill' })],
      ['sub_skill_not_in_grade', trainingItem(id('r'), { sub_skill_id: 'ic_inference' })],
      ['unknown_item_pattern', trainingItem(id('r'), { item_pattern: 'no_such_pattern' })],
      ['unknown_measure', trainingItem(id('r'), { measure_code: 'no_such_measure' })],
      ['measure_not_in_grade', trainingItem(id('r'), { measure_code: 'root_identification' })],
      ['duplicate_option_keys', trainingItem(id('r'), { options: [OPTIONS[0], { key: 'a', text_ar: 'بنت' }] })],
      ['correct_option_missing', trainingItem(id('r'), { correct_option_key: 'z' })],
      ['training_level_required', trainingItem(id('r'), { training_level: null })],
      ['bridge_target_required', trainingItem(id('r'), { content_role: 'bridge_practice' })],
      ['bridge_target_not_allowed', trainingItem(id('r'), { bridge_target_skill_id: 'letter_sounds' })],
      [
        'unknown_skill',
        trainingItem(id('r'), { content_role: 'bridge_practice', bridge_target_skill_id: 'no_such_skill' }),
      ],
      ['pattern_needs_passage', trainingItem(id('r'), { item_pattern: 'passage_literal' })],
      ['passage_not_found', trainingItem(id('r'), { passage_external_id: 'no-such-passage' })],
      ['form_fields_not_allowed', trainingItem(id('r'), { form_position: 1 })],
      ['screening_needs_form_import', trainingItem(id('r'), { content_role: 'screening' })],
      ['language_safety_blocked', trainingItem(id('r'), { stem_ar: BLOCKED })],
      ['language_safety_blocked', trainingItem(id('r'), { options: [OPTIONS[0], { key: 'b', text_ar: 'ضعيف' }] })],
      ['language_safety_blocked', trainingItem(id('r'), { hint_ar: BLOCKED })],
      ['language_safety_blocked', trainingItem(id('r'), { explanation_ar: BLOCKED })],
      ['accepted', trainingItem(dup)],
      ['duplicate_external_id_in_batch', trainingItem(dup, { training_level: 3 })],
      [
        'accepted',
        trainingItem(id('bridge'), { content_role: 'bridge_practice', bridge_target_skill_id: 'letter_sounds' }),
      ],
    ];
    const before = await countOf(t.db.sql, 'content_items');
    const report = await imported(su(), itemBody(cases.map(([, row]) => row)));
    expect(report.rows.map((r: { rejectReason: string | null }) => r.rejectReason ?? 'accepted')).toEqual(
      cases.map(([reason]) => reason),
    );
    expect(report.counts).toEqual({ rows: cases.length, accepted: 2, rejected: cases.length - 2, unchanged: 0 });
    expect(await countOf(t.db.sql, 'content_items')).toBe(before + 2);
    const [bridge] = await t.db.sql`
      select content_purpose from content_items where id = ${report.rows.at(-1).itemBankId}`;
    expect(bridge!.content_purpose).toBe('bridge');
  });
});

describe('POST /api/items/import: body rules', () => {
  const refused = async (body: Record<string, unknown>, reason: string, field?: string) => {
    const before = await contentRows();
    const res = await su().post('/api/items/import', body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason });
    if (field) expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await contentRows()).toEqual(before);
  };

  it('needs sourceDeclared for item-bearing kinds (source_declared_required)', async () => {
    for (const contentKind of ['item', 'content_bundle']) {
      const { sourceDeclared: _, ...body } = itemBody([trainingItem(freshId('s'))], { contentKind });
      await refused(body, 'source_declared_required', 'sourceDeclared');
    }
    const { sourceDeclared: _, ...form } = screeningFormBody(freshId('sf'));
    await refused({ ...form, sourceDeclared: null }, 'source_declared_required', 'sourceDeclared');
  });

  it('needs agreementSignoff for item, content_bundle and screening_form (agreement_signoff_required)', async () => {
    const { agreementSignoff: _, ...body } = itemBody([trainingItem(freshId('a'))]);
    await refused(body, 'agreement_signoff_required', 'agreementSignoff');
    const { agreementSignoff: __, ...form } = screeningFormBody(freshId('af'));
    await refused(form, 'agreement_signoff_required', 'agreementSignoff');
  });

  it('refuses fields the kind does not take (field_not_allowed_for_kind)', async () => {
    await refused(
      itemBody([trainingItem(freshId('k'))], { passages: [passage(freshId('p'))] }),
      'field_not_allowed_for_kind',
      'passages',
    );
    await refused(
      { contentKind: 'scaffold_prompt', sourceDeclared: SOURCE, scaffoldPrompts: [] },
      'field_not_allowed_for_kind',
      'sourceDeclared',
    );
    await refused(
      { contentKind: 'word_list', agreementSignoff: SIGNOFF, wordLists: [] },
      'field_not_allowed_for_kind',
      'agreementSignoff',
    );
    await refused(itemBody([], { contentKind: 'item', wordLists: [] }), 'field_not_allowed_for_kind', 'wordLists');
  });

  it('refuses an empty payload (empty_payload) and a screening_form without form (form_required)', async () => {
    await refused(itemBody([]), 'empty_payload', 'items');
    await refused({ contentKind: 'scaffold_prompt', scaffoldPrompts: [] }, 'empty_payload', 'scaffoldPrompts');
    const { form: _, ...noForm } = screeningFormBody(freshId('nf'));
    await refused(noForm, 'form_required', 'form');
  });

  it('refuses a content_purpose key: the service sets it', async () => {
    const before = await contentRows();
    const res = await su().post(
      '/api/items/import',
      itemBody([trainingItem(freshId('cp'), { content_purpose: 'training' })]),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json().details)).toContain('content_purpose');
    expect(await contentRows()).toEqual(before);
  });
});

describe('POST /api/items/import: content bundles', () => {
  it('links items to a passage of the batch, or to a stored passage by external id', async () => {
    const p = freshId('psg');
    const linked = { item_pattern: 'passage_literal', sub_skill_id: 'lc_explicit_detail', passage_external_id: p };
    const first = await imported(
      su(),
      itemBody([trainingItem(freshId('b'), linked)], { contentKind: 'content_bundle', passages: [passage(p)] }),
    );
    const passageId = first.rows[0].passageId;
    expect(first.rows.map((r: { entity: string }) => r.entity)).toEqual(['passage', 'item']);
    expect(first.rows[1].passageId).toBe(passageId);
    const [stored] = await t.db.sql`select status, word_count from content_passages where id = ${passageId}`;
    expect(stored).toEqual({ status: 'pending_review', word_count: 12 });

    const later = await imported(
      su(),
      itemBody([trainingItem(freshId('b'), linked)], { contentKind: 'content_bundle' }),
    );
    expect(later.rows[0]).toMatchObject({ rejectReason: null, passageId });
  });

  it('rejects a blocked passage and the items that link to it (passage_rejected)', async () => {
    const p = freshId('psg');
    const report = await imported(
      su(),
      itemBody(
        [
          trainingItem(freshId('b'), {
            item_pattern: 'passage_literal',
            sub_skill_id: 'lc_explicit_detail',
            passage_external_id: p,
          }),
        ],
        { contentKind: 'content_bundle', passages: [passage(p, { body_ar: BLOCKED })] },
      ),
    );
    expect(report.rows.map((r: { rejectReason: string }) => r.rejectReason)).toEqual([
      'language_safety_blocked',
      'passage_rejected',
    ]);
    const n = await versionsOf('content_passages', p);
    expect(n).toBe(0);
  });

  it('rejects a passage repeated in the batch and a blocked title', async () => {
    const p = freshId('psg');
    const report = await imported(
      su(),
      itemBody([], {
        contentKind: 'content_bundle',
        items: undefined,
        passages: [passage(p), passage(p), passage(freshId('psg'), { title_ar: 'الطالب الفاشل' })],
      }),
    );
    expect(report.rows.map((r: { rejectReason: string | null }) => r.rejectReason)).toEqual([
      null,
      'duplicate_external_id_in_batch',
      'language_safety_blocked',
    ]);
  });
});

describe('POST /api/items/import: screening forms', () => {
  it('stores a complete form as a draft with pending items, and a re-import is unchanged', async () => {
    const formId = freshId('form');
    const report = await imported(su(), screeningFormBody(formId));
    expect(report).toMatchObject({
      contentKind: 'screening_form',
      formRejected: false,
      formProblems: { missingPositions: [], duplicatePositions: [], countMismatch: [], measuresNotInGrade: [] },
      counts: { rows: 8, accepted: 8, rejected: 0, unchanged: 0 },
    });
    const [form] = await t.db.sql`
      select status, version, grade, window_code from content_screening_forms where id = ${report.screeningFormId}`;
    expect(form).toEqual({ status: 'draft', version: 1, grade: 1, window_code: 'BOY' });
    const items = await t.db.sql`
      select status, content_purpose from content_items where screening_form_id = ${report.screeningFormId}`;
    expect(items).toHaveLength(7);
    expect(new Set(items.map((i) => `${i.status}/${i.content_purpose}`))).toEqual(
      new Set(['pending_review/diagnostic']),
    );

    const before = await contentRows();
    const again = await imported(su(), screeningFormBody(formId));
    expect(again.screeningFormId).toBe(report.screeningFormId);
    expect(again.counts).toEqual({ rows: 8, accepted: 0, rejected: 0, unchanged: 8 });
    expect(again.rows.map((r: { itemBankId: string | null }) => r.itemBankId)).toEqual(
      report.rows.map((r: { itemBankId: string | null }) => r.itemBankId),
    );
    expect(await contentRows()).toEqual({ ...before, content_import_batches: before.content_import_batches + 1 });
  });

  it('rejects the whole form on position, count and grade problems, storing nothing of it', async () => {
    const formId = freshId('bad');
    const body = screeningFormBody(formId);
    const items = body.items as Record<string, unknown>[];
    items[1] = { ...items[1], form_position: 1 }; // word_recognition: 1, 1, 3, 4 → 2 missing, 1 twice
    items.splice(6, 1); // text1_comprehension: 2 of 3
    items.push({
      ...items[0],
      external_id: `${formId}-root`,
      sub_skill_id: 'fw_common_words',
      measure_code: 'root_identification',
      form_position: 1,
    });
    const before = await contentRows();
    const report = await imported(su(), body);
    expect(report.formRejected).toBe(true);
    expect(report.screeningFormId).toBeNull();
    expect(report.formProblems).toEqual({
      missingPositions: [{ measureCode: 'word_recognition', formPosition: 2 }],
      duplicatePositions: [{ measureCode: 'word_recognition', formPosition: 1 }],
      countMismatch: [
        { measureCode: 'root_identification', expected: 3, actual: 1 },
        { measureCode: 'text1_comprehension', expected: 3, actual: 2 },
      ],
      measuresNotInGrade: ['root_identification'],
    });
    const reasons = report.rows.map((r: { rejectReason: string }) => r.rejectReason);
    expect(reasons.at(-1)).toBe('measure_not_in_grade');
    expect(reasons.slice(0, -1).every((r: string) => r === 'form_rejected')).toBe(true);
    expect(report.counts).toMatchObject({ accepted: 0, rejected: report.rows.length });
    expect(await contentRows()).toEqual({ ...before, content_import_batches: before.content_import_batches + 1 });
  });

  it('gives screening rows their own reasons, and one bad row rejects the form', async () => {
    const formId = freshId('rows');
    const body = screeningFormBody(formId);
    const items = body.items as Record<string, unknown>[];
    items[0] = { ...items[0], content_role: 'target_training', training_level: 1 };
    items[1] = { ...items[1], form_position: null };
    items[2] = { ...items[2], form_id: 'another-form' };
    items[3] = { ...items[3], grade: 2 };
    items.push({ ...items[4], external_id: `${formId}-oral`, measure_code: 'orf_text', form_position: 1 });
    const report = await imported(su(), body);
    expect(report.formRejected).toBe(true);
    expect(report.rows.map((r: { rejectReason: string }) => r.rejectReason)).toEqual([
      'form_rejected', // the passage
      'screening_role_required',
      'form_item_fields_required',
      'form_id_mismatch',
      'form_grade_mismatch',
      'form_rejected',
      'form_rejected',
      'form_rejected',
      'oral_measure_not_on_form',
    ]);
    const n = await versionsOf('content_screening_forms', formId);
    expect(n).toBe(0);
  });

  it('stores a changed form as the next draft version beside the waiting one', async () => {
    const formId = freshId('draft');
    const first = await imported(su(), screeningFormBody(formId));
    const changed = await imported(su(), screeningFormBody(formId, { stemSuffix: '؟' }));
    expect(changed.formRejected).toBe(false);
    expect(changed.screeningFormId).not.toBe(first.screeningFormId);
    expect(changed.rows[0]).toMatchObject({ entity: 'passage', unchanged: true, passageId: first.rows[0].passageId });
    const forms = await t.db.sql`
      select version, status from content_screening_forms where external_id = ${formId} order by version`;
    expect(forms).toEqual([
      { version: 1, status: 'draft' },
      { version: 2, status: 'draft' },
    ]);
    const [item] = await t.db.sql`select version from content_items where id = ${changed.rows[1].itemBankId}`;
    expect(item!.version).toBe(2);
  });
});

describe('POST /api/items/import: scaffold prompts and word lists', () => {
  const FAMILIAR = ['بَيْت', 'قَلَم', 'شَمْس', 'وَرْدَة', 'كِتَاب', 'بَاب', 'سَمَك', 'جَمَل', 'قَمَر', 'نَهْر', 'شَجَرَة'];

  it('stores prompts pending_review with a null source, with their reasons', async () => {
    const report = await imported(su(), {
      contentKind: 'scaffold_prompt',
      scaffoldPrompts: [
        { external_id: freshId('sp'), sub_skill_id: 'ls_short_vowels', tier: 1, prompt_ar: 'انطق الحرف مع حركته' },
        { external_id: freshId('sp'), sub_skill_id: 'no_such', tier: 2, prompt_ar: 'انطق الحرف' },
        { external_id: freshId('sp'), sub_skill_id: 'ls_short_vowels', tier: 3, prompt_ar: BLOCKED },
      ],
    });
    expect(report).toMatchObject({ sourceDeclared: null, agreementSignoff: null });
    expect(report.rows.map((r: { rejectReason: string | null }) => r.rejectReason)).toEqual([
      null,
      'unknown_sub_skill',
      'language_safety_blocked',
    ]);
    const [stored] = await t.db.sql`
      select status, tier from content_scaffold_prompts where id = ${report.rows[0].scaffoldPromptId}`;
    expect(stored).toEqual({ status: 'pending_review', tier: 1 });
  });

  it('stores word lists as drafts in their scope and checks them like the builder', async () => {
    const list = (over: Record<string, unknown> = {}) => ({
      external_id: freshId('wl'),
      grade: 1,
      skill_id: 'familiar_word_reading',
      window: 'BOY',
      words: FAMILIAR,
      ...over,
    });
    const cases: [string, Record<string, unknown>][] = [
      ['accepted', list()],
      ['accepted', list({ school_id: w.a.schoolId, timing: { timed: false }, window: null })],
      ['unknown_school', list({ school_id: w.b.schoolId })],
      ['unknown_skill', list({ skill_id: 'no_such_skill' })],
      ['no_word_list_cell', list({ skill_id: 'letter_sounds' })],
      ['word_count_out_of_range', list({ words: FAMILIAR.slice(0, 5) })],
      ['duplicate_words', list({ words: [...FAMILIAR, 'بَيْت'] })],
      ['not_arabic_word', list({ words: [...FAMILIAR.slice(1), 'cat'] })],
      ['untimed_with_duration', list({ timing: { timed: false, durationSeconds: 60 } })],
      ['language_safety_blocked', list({ reading_note_ar: BLOCKED })],
    ];
    const report = await imported(adminA(), { contentKind: 'word_list', wordLists: cases.map(([, l]) => l) });
    expect(report.rows.map((r: { rejectReason: string | null }) => r.rejectReason ?? 'accepted')).toEqual(
      cases.map(([reason]) => reason),
    );
    const stored = await t.db.sql`
      select scope, school_id, status, timed, duration_seconds, version from content_word_lists
      where id = any(${[report.rows[0].wordListId, report.rows[1].wordListId]}) order by scope`;
    expect(stored).toEqual([
      { scope: 'organization', school_id: null, status: 'draft', timed: true, duration_seconds: 60, version: 1 },
      { scope: 'school', school_id: w.a.schoolId, status: 'draft', timed: false, duration_seconds: null, version: 1 },
    ]);
  });
});

describe('POST /api/items/import: size limits and encodings', () => {
  /** A form bundle with 70 long passages: about 2.4 MB of real, schema-valid content. */
  const bigFormBody = (contentKind: string) => {
    const body = screeningFormBody(freshId('big'));
    const text = 'ذهب سامي إلى الحديقة مع أبيه ورأى شجرة كبيرة. '.repeat(420).slice(0, 20000);
    const extra = Array.from({ length: 70 }, () => passage(freshId('bigp'), { body_ar: text }));
    return { ...body, contentKind, passages: [...(body.passages as object[]), ...extra] };
  };

  it('answers 413 for a screening_form over 2 MB after decoding, before validation or any write', async () => {
    const body = bigFormBody('screening_form');
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(2 * 1024 * 1024);
    const before = await contentRows();
    const res = await su().post('/api/items/import', body);
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(await contentRows()).toEqual(before);
  });

  it('takes the same size as a content_bundle (10 MB limit)', async () => {
    const { form: _, items: __, ...body } = bigFormBody('content_bundle') as Record<string, unknown>;
    const report = await imported(su(), body);
    expect(report.counts.accepted).toBe(71);
  });

  it('answers 413 for a word_list over 1 MB', async () => {
    const body = {
      contentKind: 'word_list',
      wordLists: Array.from({ length: 2000 }, () => ({
        external_id: freshId('wl'),
        grade: 1,
        skill_id: 'familiar_word_reading',
        words: Array.from({ length: 30 }, () => 'كَلِمَة'),
      })),
    };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(1024 * 1024);
    const res = await su().post('/api/items/import', body);
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('accepts a gzip body (Content-Encoding: gzip)', async () => {
    const { gzipSync } = await import('node:zlib');
    const body = itemBody([trainingItem(freshId('gz'))]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/items/import',
      headers: {
        authorization: `Bearer ${w.superToken}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      payload: gzipSync(Buffer.from(JSON.stringify(body))),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().counts.accepted).toBe(1);
  });

  it('cuts a gzip body that inflates past 10 MB with 413, and refuses broken gzip and other encodings', async () => {
    const { gzipSync } = await import('node:zlib');
    const send = (payload: Buffer, encoding: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/items/import',
        headers: {
          authorization: `Bearer ${w.superToken}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        payload,
      });
    const json = JSON.stringify(itemBody([trainingItem(freshId('bomb'))]));
    const bomb = gzipSync(Buffer.concat([Buffer.from(json), Buffer.alloc(11 * 1024 * 1024, 0x20)]));
    expect(bomb.length).toBeLessThan(100_000);
    const before = await contentRows();
    const cut = await send(bomb, 'gzip');
    expect(cut.statusCode).toBe(413);
    expect(cut.json().code).toBe('PAYLOAD_TOO_LARGE');
    const broken = await send(Buffer.from('not gzip at all'), 'gzip');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('MALFORMED_REQUEST');
    const brotli = await send(Buffer.from(json), 'br');
    expect(brotli.statusCode).toBe(415);
    expect(await contentRows()).toEqual(before);
  });

  it('answers 413 for a plain body over 10 MB', async () => {
    const json = JSON.stringify(itemBody([trainingItem(freshId('huge'))]));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/items/import',
      headers: { authorization: `Bearer ${w.superToken}`, 'content-type': 'application/json' },
      payload: json + ' '.repeat(10 * 1024 * 1024),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('content writes without a language-safety rule set', () => {
  it('answer 503 LANGUAGE_SAFETY_UNAVAILABLE (import and item edit) and write nothing', async () => {
    const fresh = await createTestApp();
    try {
      const reg = await client(fresh.app).post('/api/auth/register', {
        email: 'root@import503.test',
        password: 'correct horse battery',
        fullNameAr: 'المشرف',
        primaryPersona: 'ADMIN',
      });
      const api = client(fresh.app, reg.json().tokens.accessToken);
      const stored = await imported(api, itemBody([trainingItem(freshId('ls'))]));
      await fresh.db.sql`alter table language_safety_rules rename to language_safety_rules_away`;
      // The import above cached the rule set; a failed reload drops the cache, as the TTL would.
      await expect(reloadLanguageSafety(fresh.runtime.deps.sql)).rejects.toThrow();
      const res = await api.post('/api/items/import', itemBody([trainingItem(freshId('ls'))]));
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('LANGUAGE_SAFETY_UNAVAILABLE');
      expect(await countOf(fresh.db.sql, 'content_import_batches')).toBe(1);
      const edit = await fresh.app.inject({
        method: 'PATCH',
        url: `/api/items/${stored.rows[0].itemBankId}`,
        headers: { authorization: `Bearer ${reg.json().tokens.accessToken}`, 'if-match': 'r1' },
        payload: { stemAr: 'اختر الكلمة المطابقة: بنت' },
      });
      expect(edit.statusCode).toBe(503);
      expect(edit.json().code).toBe('LANGUAGE_SAFETY_UNAVAILABLE');
      const [row] = await fresh.db.sql`select revision from content_items where id = ${stored.rows[0].itemBankId}`;
      expect(row!.revision).toBe(1);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
