import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { loadLanguageSafety, reloadLanguageSafety } from '@qiraa/language-safety';
import { beforeAll, describe, expect, it } from 'vitest';
import { pickWordList, recordWordListUse } from '../index';
import {
  createBody,
  createList,
  FAMILIAR_G1,
  FAMILIAR_G3,
  FAMILIAR_G4,
  freshOrganization,
  newExternalId,
  PSEUDO_G1,
  READING_NOTE,
  waitForLockWait,
  wordListRowCount,
} from '../testing/wordListTestKit';

const { t, w } = useTestWorld();
let root: Client;
let admin: Client;
let adminB: Client;

beforeAll(async () => {
  root = client(t.app, w.superToken);
  admin = client(t.app, w.a.adminToken);
  adminB = client(t.app, w.b.adminToken);
}, 120_000);

const rows = () => wordListRowCount(t.db.sql);

describe('the test words', () => {
  it('all pass the general tier of the language filter, and ضَعِيف does not', async () => {
    const filter = await loadLanguageSafety(t.db.sql);
    for (const word of [...FAMILIAR_G1, ...PSEUDO_G1, ...FAMILIAR_G4, READING_NOTE]) {
      expect(filter.check(word, 'general').kind, word).toBe('pass');
    }
    expect(filter.check('ضَعِيف', 'general').kind).toBe('rewrite');
  });
});

describe('POST /api/admin/word-lists', () => {
  it('lands an organization admin’s list in their organization as operational version 1 with the defaults', async () => {
    // Grade 1 pseudowords in MOY: the only list of organization A in that cell, so no cell warning.
    const body = createBody({ skillId: 'pseudoword_decoding', window: 'MOY', words: PSEUDO_G1.slice(0, 10) });
    const res = await admin.post('/api/admin/word-lists', body);
    expect(res.statusCode, res.body).toBe(201);
    const list = res.json();
    expect(list).toMatchObject({
      externalId: body.externalId,
      scope: 'organization',
      organizationId: w.a.id,
      schoolId: null,
      version: 1,
      status: 'operational',
      grade: 1,
      skillId: 'pseudoword_decoding',
      skillLabelAr: 'قراءة الكلمات المصنوعة',
      window: 'MOY',
      words: PSEUDO_G1.slice(0, 10),
      wordCount: 10,
      timing: { timed: true, durationSeconds: 60 },
      wordsPerRow: 5,
      readingNoteAr: READING_NOTE,
      assessmentsCount: 0,
      retiredAt: null,
      warnings: [],
    });
    expect(list.id).toMatch(/^wl_/);
    expect(Date.parse(list.publishedAt)).not.toBeNaN();
    const [row] = await t.db.sql`
      select words_per_row, duration_seconds, timed, content_hash, created_by from content_word_lists where id = ${list.id}`;
    expect(row).toMatchObject({ words_per_row: null, duration_seconds: 60, timed: true });
    expect(row!['content_hash']).toMatch(/^[0-9a-f]{64}$/);
    expect(row!['created_by']).not.toBeNull();
  });

  it('stores a draft when publish is false', async () => {
    const list = await createList(admin, { publish: false });
    expect(list).toMatchObject({ status: 'draft', version: 1, publishedAt: null });
  });

  it('stores an untimed list without a duration, and the words per row it names', async () => {
    const list = await createList(admin, { timing: { timed: false }, wordsPerRow: 4, window: null, publish: false });
    expect(list).toMatchObject({ timing: { timed: false, durationSeconds: null }, wordsPerRow: 4, window: null });
    expect((list['warnings'] as { code: string }[]).map((x) => x.code)).toEqual(['untimed_list']);
  });

  it('takes a timed list’s own duration, and 60 seconds when it names none', async () => {
    expect(await createList(admin, { timing: { timed: true, durationSeconds: 90 } })).toMatchObject({
      timing: { timed: true, durationSeconds: 90 },
    });
    expect(await createList(admin, { timing: { timed: true } })).toMatchObject({
      timing: { timed: true, durationSeconds: 60 },
    });
  });

  it('writes global lists for the super-admin by default, an organization’s with organizationId, a school’s with schoolId', async () => {
    expect(await createList(root)).toMatchObject({ scope: 'global', organizationId: null, schoolId: null });
    expect(await createList(root, { organizationId: w.b.id })).toMatchObject({
      scope: 'organization',
      organizationId: w.b.id,
      schoolId: null,
    });
    expect(await createList(root, { schoolId: w.a.otherSchoolId })).toMatchObject({
      scope: 'school',
      organizationId: w.a.id,
      schoolId: w.a.otherSchoolId,
    });
    expect(await createList(admin, { schoolId: w.a.schoolId })).toMatchObject({
      scope: 'school',
      organizationId: w.a.id,
      schoolId: w.a.schoolId,
    });
  });

  it.each([
    ['an organization admin naming another organization', 'a', { organizationId: 'B' }],
    ['an organization admin naming another organization’s school', 'a', { schoolId: 'B.school' }],
    ['a school outside the organization named', 'super', { organizationId: 'A', schoolId: 'B.school' }],
    ['an unknown organization', 'super', { organizationId: 'org_AAAAAAAAAAAA' }],
    ['an unknown school', 'super', { schoolId: 'sch_AAAAAAAAAAAA' }],
  ])('answers 404 for %s and writes nothing', async (_name, who, scope) => {
    const resolve = (v: string) => (v === 'A' ? w.a.id : v === 'B' ? w.b.id : v === 'B.school' ? w.b.schoolId : v);
    const over = Object.fromEntries(Object.entries(scope).map(([k, v]) => [k, resolve(v)]));
    const before = await rows();
    const res = await (who === 'a' ? admin : root).post('/api/admin/word-lists', createBody(over));
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    expect(await rows()).toBe(before);
  });

  it('answers 409 external_id_taken for an externalId used in the scope in any status; another scope may reuse it', async () => {
    const draft = await createList(admin, { publish: false });
    const before = await rows();
    const res = await admin.post('/api/admin/word-lists', createBody({ externalId: draft.externalId }));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'external_id_taken' });
    expect(await rows()).toBe(before);
    // The same externalId in global scope and in a school of the organization is another list.
    expect(await createList(root, { externalId: draft.externalId })).toMatchObject({ scope: 'global', version: 1 });
    expect(await createList(admin, { externalId: draft.externalId, schoolId: w.a.schoolId })).toMatchObject({
      scope: 'school',
    });
  });

  it('answers 409 external_id_taken when a concurrent create of the externalId commits first (unique constraint)', async () => {
    const externalId = newExternalId('race');
    let inserted!: () => void;
    let release!: () => void;
    const insertedP = new Promise<void>((r) => (inserted = r));
    const gate = new Promise<void>((r) => (release = r));
    const holder = inTransaction(t.db.sql, async ({ sql: tx }) => {
      await tx`
        insert into content_word_lists (id, external_id, scope, organization_id, version, grade, skill_id, words, status,
                                        content_hash, duration_seconds)
        values ('wl_race0000000001', ${externalId}, 'organization', ${w.a.id}, 1, 1, 'familiar_word_reading',
                ${tx.array(FAMILIAR_G1.slice(0, 10))}::text[], 'draft', 'x', 60)`;
      inserted();
      await gate;
    });
    await insertedP;
    const creating = admin.post('/api/admin/word-lists', createBody({ externalId }));
    await waitForLockWait(t.db.sql);
    release();
    await holder;
    const res = await creating;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().reason).toBe('external_id_taken');
  });

  const tooMany = [...FAMILIAR_G1, ...FAMILIAR_G3].slice(0, 31);
  const blocked = [...FAMILIAR_G1.slice(0, 9), 'ضَعِيف'];
  it.each([
    ['no_word_list_cell', { skillId: 'letter_sounds' }],
    ['no_word_list_cell', { skillId: 'no_such_skill' }],
    ['untimed_with_duration', { timing: { timed: false, durationSeconds: 30 } }],
    ['duration_out_of_range', { timing: { timed: true, durationSeconds: 5 } }],
    ['duration_out_of_range', { timing: { timed: true, durationSeconds: 601 } }],
    ['words_per_row_out_of_range', { wordsPerRow: 11 }],
    ['words_per_row_out_of_range', { wordsPerRow: 0 }],
    ['not_arabic_word', { words: [...FAMILIAR_G1.slice(0, 9), 'book'] }],
    ['not_arabic_word', { words: [...FAMILIAR_G1.slice(0, 9), 'قَمَر نَهْر'] }],
    ['duplicate_words', { words: [...FAMILIAR_G1.slice(0, 10), 'بَيْت'] }],
    ['too_few_words', { words: FAMILIAR_G1.slice(0, 9) }],
    ['too_many_words', { words: tooMany }],
    ['language_safety_blocked', { words: blocked }],
    ['language_safety_blocked', { readingNoteAr: 'هذه قائمة للطالب الضعيف' }],
  ])('refuses %s with 422, the validate shape, and writes nothing (%j)', async (reason, over) => {
    const before = await rows();
    const res = await admin.post('/api/admin/word-lists', createBody(over));
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', reason, ok: false, reject: { reason } });
    expect(body.reject.details.length).toBeGreaterThan(0);
    expect(Array.isArray(body.warnings)).toBe(true);
    expect(await rows()).toBe(before);
  });

  it('names the offending word of a not_arabic_word refusal', async () => {
    const res = await admin.post('/api/admin/word-lists', createBody({ words: [...FAMILIAR_G1.slice(0, 9), 'قـمر'] }));
    expect(res.json().reject.details).toEqual([
      { field: 'words[9]', issue: 'must be one word of Arabic letters and diacritics' },
    ]);
  });

  it('refuses keys the create body does not declare', async () => {
    const res = await admin.post('/api/admin/word-lists', { ...createBody(), status: 'operational' });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });

  it('warns cell_has_operational_list when a published list joins another operational list of its scope', async () => {
    const org = await freshOrganization(root, `cell-warn-${process.pid}`);
    const first = await createList(root, { organizationId: org.id, window: null });
    expect(first['warnings']).toEqual([]);
    const second = await createList(root, { organizationId: org.id, window: 'MOY' });
    expect((second['warnings'] as { code: string }[]).map((x) => x.code)).toEqual(['cell_has_operational_list']);
    // A draft joins no cell; a school list is another scope.
    expect((await createList(root, { organizationId: org.id, publish: false }))['warnings']).toEqual([]);
    expect((await createList(root, { schoolId: org.schoolId }))['warnings']).toEqual([]);
  });

  it('warns words_without_diacritics on a grade 1-2 list with bare words', async () => {
    const words = [...FAMILIAR_G1.slice(0, 8), 'قمر', 'نهر'];
    const list = await createList(admin, { words, publish: false });
    expect(list['warnings']).toEqual([
      {
        code: 'words_without_diacritics',
        details: [
          { field: 'words[8]', issue: 'carries no harakat' },
          { field: 'words[9]', issue: 'carries no harakat' },
        ],
      },
    ]);
  });
});

describe('POST /api/admin/word-lists/validate', () => {
  it('answers ok with the warnings and writes nothing', async () => {
    const before = await rows();
    const res = await admin.post(
      '/api/admin/word-lists/validate',
      createBody({ readingNoteAr: undefined, publish: false }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      warnings: [{ code: 'no_reading_note', details: [{ field: 'readingNoteAr', issue: 'is empty' }] }],
    });
    expect(await rows()).toBe(before);
  });

  it('answers 200 with ok false and the reject, and writes nothing', async () => {
    const before = await rows();
    const res = await admin.post(
      '/api/admin/word-lists/validate',
      createBody({ words: FAMILIAR_G1.slice(0, 3), publish: false }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ok: false,
      reject: { reason: 'too_few_words', details: [{ field: 'words', issue: 'needs at least 10 words in this cell' }] },
      warnings: [],
    });
    expect(await rows()).toBe(before);
  });

  it('warns cell_has_operational_list when the published list would join an operational one of its scope', async () => {
    await createList(admin, { window: 'EOY' });
    const res = await admin.post('/api/admin/word-lists/validate', createBody({ window: 'EOY' }));
    expect(res.json().warnings.map((x: { code: string }) => x.code)).toEqual(['cell_has_operational_list']);
  });

  it('resolves the scope as create does (another organization is 404)', async () => {
    const res = await admin.post('/api/admin/word-lists/validate', createBody({ organizationId: w.b.id }));
    expect(res.statusCode).toBe(404);
  });

  it('answers 503 LANGUAGE_SAFETY_UNAVAILABLE without a rule set, on validate and on create, writing nothing', async () => {
    const pool = t.runtime.deps.sql;
    await t.db.sql`alter table language_safety_rule_sets rename to language_safety_rule_sets_away`;
    try {
      await reloadLanguageSafety(pool).catch(() => undefined);
      const before = await rows();
      const validate = await admin.post('/api/admin/word-lists/validate', createBody());
      expect(validate.statusCode, validate.body).toBe(503);
      expect(validate.json().code).toBe('LANGUAGE_SAFETY_UNAVAILABLE');
      const create = await admin.post('/api/admin/word-lists', createBody());
      expect(create.statusCode, create.body).toBe(503);
      expect(create.json().code).toBe('LANGUAGE_SAFETY_UNAVAILABLE');
      expect(await rows()).toBe(before);
    } finally {
      await t.db.sql`alter table language_safety_rule_sets_away rename to language_safety_rule_sets`;
      await reloadLanguageSafety(pool);
    }
  });
});

describe('GET /api/admin/word-lists', () => {
  it('lists every version of the global, own and own schools’ lists, never another organization’s', async () => {
    const own = await createList(admin, { publish: false });
    const school = await createList(admin, { schoolId: w.a.otherSchoolId });
    const global = await createList(root);
    const other = await createList(adminB);
    const res = await admin.get('/api/admin/word-lists');
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().lists.map((l: { id: string }) => l.id);
    expect(ids).toEqual(expect.arrayContaining([own.id, school.id, global.id]));
    expect(ids).not.toContain(other.id);
    const orgs = new Set(res.json().lists.map((l: { organizationId: string | null }) => l.organizationId));
    expect([...orgs].sort()).toEqual([w.a.id, null].sort());
    expect(res.json().lists.find((l: { id: string }) => l.id === own.id)).toMatchObject({ status: 'draft' });
  });

  it('gives the super-admin global lists only without organizationId, and that organization’s view with it', async () => {
    const own = await createList(admin);
    const bare = await root.get('/api/admin/word-lists');
    expect(bare.statusCode).toBe(200);
    expect(bare.json().lists.every((l: { scope: string }) => l.scope === 'global')).toBe(true);
    const named = await root.get(`/api/admin/word-lists?organizationId=${w.a.id}`);
    expect(named.json().lists.map((l: { id: string }) => l.id)).toContain(own.id);
    expect(named.json().lists.map((l: { id: string }) => l.id)).toEqual(
      (await admin.get('/api/admin/word-lists')).json().lists.map((l: { id: string }) => l.id),
    );
  });

  it('answers 404 for another organization or an unknown one', async () => {
    expect((await admin.get(`/api/admin/word-lists?organizationId=${w.b.id}`)).statusCode).toBe(404);
    expect((await root.get('/api/admin/word-lists?organizationId=org_AAAAAAAAAAAA')).statusCode).toBe(404);
  });

  it('gives 24 cells (8 grade × skill cells × 3 windows) with min and max words, and the two word-list skills', async () => {
    const { cells, skills } = (await admin.get('/api/admin/word-lists')).json();
    expect(cells).toHaveLength(24);
    expect(cells.slice(0, 3).map((c: { window: string }) => c.window)).toEqual(['BOY', 'MOY', 'EOY']);
    expect(
      cells.find((c: { grade: number; skillId: string }) => c.grade === 3 && c.skillId === 'pseudoword_decoding'),
    ).toMatchObject({ minWords: 20, maxWords: 50 });
    expect(skills).toEqual([
      { id: 'familiar_word_reading', labelAr: 'قراءة الكلمات المألوفة', grades: [1, 2, 3, 4] },
      { id: 'pseudoword_decoding', labelAr: 'قراءة الكلمات المصنوعة', grades: [1, 2, 3, 4] },
    ]);
  });

  it('picks per cell: own organization before global, a window list before an all-window list, the newest, operational only', async () => {
    // Grade 3 familiar words: no other test writes this cell.
    const org = await freshOrganization(root, `pick-${process.pid}`);
    const g3 = { grade: 3, words: FAMILIAR_G3.slice(0, 20) };
    const picked = async () => {
      const res = await root.get(`/api/admin/word-lists?organizationId=${org.id}`);
      const cells = res
        .json()
        .cells.filter(
          (c: { grade: number; skillId: string }) => c.grade === 3 && c.skillId === 'familiar_word_reading',
        );
      return Object.fromEntries(
        cells.map((c: { window: string; pickedListId: string | null }) => [c.window, c.pickedListId]),
      );
    };
    expect(await picked()).toEqual({ BOY: null, MOY: null, EOY: null });

    const globalAll = await createList(root, { ...g3, window: null });
    expect(await picked()).toEqual({ BOY: globalAll.id, MOY: globalAll.id, EOY: globalAll.id });
    const globalBoy = await createList(root, { ...g3, window: 'BOY' });
    expect(await picked()).toEqual({ BOY: globalBoy.id, MOY: globalAll.id, EOY: globalAll.id });
    const orgAll = await createList(root, { ...g3, organizationId: org.id, window: null });
    expect(await picked()).toEqual({ BOY: orgAll.id, MOY: orgAll.id, EOY: orgAll.id });
    const orgMoy = await createList(root, { ...g3, organizationId: org.id, window: 'MOY' });
    await createList(root, { ...g3, organizationId: org.id, window: 'EOY', publish: false });
    await createList(root, { ...g3, schoolId: org.schoolId, window: 'BOY' });
    expect(await picked()).toEqual({ BOY: orgAll.id, MOY: orgMoy.id, EOY: orgAll.id });
    const orgMoyNewer = await createList(root, { ...g3, organizationId: org.id, window: 'MOY' });
    expect(await picked()).toEqual({ BOY: orgAll.id, MOY: orgMoyNewer.id, EOY: orgAll.id });
    expect((await root.post(`/api/admin/word-lists/${orgMoyNewer.id}/retire`)).statusCode).toBe(200);
    expect(await picked()).toEqual({ BOY: orgAll.id, MOY: orgMoy.id, EOY: orgAll.id });

    // Organization A has no grade 3 list of its own: global serves it.
    const a = (await admin.get('/api/admin/word-lists'))
      .json()
      .cells.filter((c: { grade: number; skillId: string }) => c.grade === 3 && c.skillId === 'familiar_word_reading');
    expect(a.map((c: { pickedListId: string }) => c.pickedListId)).toEqual([globalBoy.id, globalAll.id, globalAll.id]);
  });
});

describe('pickWordList (the export the assessment context reads)', () => {
  it('serves the school’s list first, then the organization’s, then global', async () => {
    const org = await freshOrganization(root, `pick-export-${process.pid}`);
    const g = { grade: 4, words: FAMILIAR_G4.slice(0, 25), window: 'EOY' };
    const global = await createList(root, g);
    const own = await createList(root, { ...g, organizationId: org.id, window: null });
    const school = await createList(root, { ...g, schoolId: org.schoolId, window: null });
    const sql = t.runtime.deps.sql;
    const at = { grade: 4, skillId: 'familiar_word_reading', window: 'EOY' } as const;
    expect((await pickWordList(sql, { ...at, organizationId: org.id, schoolId: org.schoolId }))?.id).toBe(school.id);
    expect((await pickWordList(sql, { ...at, organizationId: org.id }))?.id).toBe(own.id);
    expect((await pickWordList(sql, { ...at, organizationId: null, schoolId: org.schoolId }))?.id).toBe(global.id);
    // A school of another organization is not in the chain.
    expect((await pickWordList(sql, { ...at, organizationId: w.a.id, schoolId: org.schoolId }))?.id).toBe(global.id);
    expect(await pickWordList(sql, { ...at, organizationId: org.id, skillId: 'letter_sounds' })).toBeNull();
    const served = await pickWordList(sql, { ...at, organizationId: org.id, schoolId: org.schoolId });
    expect(served).toMatchObject({
      words: FAMILIAR_G4.slice(0, 25),
      timing: { timed: true, durationSeconds: 60 },
      wordsPerRow: 5,
    });
  });
});

describe('GET /api/admin/word-lists/{id}', () => {
  it('answers the list with every version of it, oldest first', async () => {
    const v1 = await createList(admin);
    const edited = await admin.patch(`/api/admin/word-lists/${v1.id}`, {
      ifVersion: 1,
      words: FAMILIAR_G1.slice(0, 11),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const res = await admin.get(`/api/admin/word-lists/${v1.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: v1.id, version: 1, status: 'retired', externalId: v1.externalId });
    expect(
      body.versions.map((v: Record<string, unknown>) => [v['id'], v['version'], v['status'], v['wordCount']]),
    ).toEqual([
      [v1.id, 1, 'retired', 10],
      [edited.json().id, 2, 'operational', 11],
    ]);
    expect(Date.parse(body.versions[0].updatedAt)).not.toBeNaN();
  });

  it('shows global lists to an organization admin; another organization’s list and an unknown id are 404', async () => {
    const global = await createList(root);
    expect((await admin.get(`/api/admin/word-lists/${global.id}`)).statusCode).toBe(200);
    const other = await createList(adminB);
    const res = await admin.get(`/api/admin/word-lists/${other.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    expect((await admin.get('/api/admin/word-lists/wl_AAAAAAAAAAAAAA')).statusCode).toBe(404);
  });
});

describe('recordWordListUse', () => {
  it('counts each assessment once in assessmentsCount', async () => {
    const list = await createList(admin);
    const sql = t.runtime.deps.sql;
    expect(await recordWordListUse(sql, { wordListId: list.id, assessmentRef: 'wla_1' })).toEqual({ recorded: true });
    expect(await recordWordListUse(sql, { wordListId: list.id, assessmentRef: 'wla_1' })).toEqual({ recorded: false });
    await recordWordListUse(sql, { wordListId: list.id, assessmentRef: 'wla_2' });
    expect((await admin.get(`/api/admin/word-lists/${list.id}`)).json().assessmentsCount).toBe(2);
    const listed = (await admin.get('/api/admin/word-lists'))
      .json()
      .lists.find((l: { id: string }) => l.id === list.id);
    expect(listed.assessmentsCount).toBe(2);
    // A new version starts at 0: the count is per version.
    const v2 = await admin.patch(`/api/admin/word-lists/${list.id}`, { ifVersion: 1, wordsPerRow: 3 });
    expect(v2.json()).toMatchObject({ version: 2, assessmentsCount: 0 });
  });
});
