import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createList,
  FAMILIAR_G1,
  FAMILIAR_G4,
  freshOrganization,
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
const url = (id: string, action = '') => `/api/admin/word-lists/${id}${action ? `/${action}` : ''}`;
const stored = async (id: string) =>
  (
    await t.db.sql<{ status: string; version: number; words: string[]; source_version_id: string | null }[]>`
    select status, version, words, source_version_id from content_word_lists where id = ${id}`
  )[0]!;
const statuses = async (externalId: string) =>
  (
    await t.db.sql<{ version: number; status: string }[]>`
      select version, status from content_word_lists where external_id = ${externalId} order by version`
  ).map((r) => `${r.version}:${r.status}`);

/** Stores a version directly, as a word-list import may (states the builder alone never reaches). */
async function storeVersion(list: { externalId: string }, version: number, status: string): Promise<string> {
  const id = `wl_v${version}${Math.random().toString(36).slice(2, 12)}`;
  await t.db.sql`
    insert into content_word_lists (id, external_id, scope, organization_id, version, grade, skill_id, window_code,
                                    words, status, content_hash, duration_seconds, published_at)
    values (${id}, ${list.externalId}, 'organization', ${w.a.id}, ${version}, 1, 'familiar_word_reading', 'BOY',
            ${t.db.sql.array(FAMILIAR_G1.slice(0, 10))}::text[], ${status}, 'imported', 60,
            ${status === 'operational' ? new Date() : null})`;
  return id;
}

/** Operational v1 edited into operational v2 (v1 retired). */
async function twoVersions() {
  const v1 = await createList(admin);
  const res = await admin.patch(url(v1.id), { ifVersion: 1, words: FAMILIAR_G1.slice(0, 11) });
  expect(res.statusCode, res.body).toBe(200);
  return { v1, v2: res.json() as { id: string; version: number } };
}

describe('PATCH /api/admin/word-lists/{id}', () => {
  it('edits a draft in place: same id and version, madeVersion null', async () => {
    const draft = await createList(admin, { publish: false });
    const before = await rows();
    const res = await admin.patch(url(draft.id), { ifVersion: 1, words: FAMILIAR_G1.slice(2, 12), wordsPerRow: 4 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: draft.id,
      version: 1,
      status: 'draft',
      madeVersion: null,
      words: FAMILIAR_G1.slice(2, 12),
      wordsPerRow: 4,
    });
    expect(await rows()).toBe(before);
    expect((await stored(draft.id)).words).toEqual(FAMILIAR_G1.slice(2, 12));
  });

  it('makes a new operational version of an operational list and retires the source in the same write', async () => {
    const v1 = await createList(admin);
    const res = await admin.patch(url(v1.id), { ifVersion: 1, timing: { timed: true, durationSeconds: 45 } });
    expect(res.statusCode, res.body).toBe(200);
    const v2 = res.json();
    expect(v2).toMatchObject({
      version: 2,
      madeVersion: 2,
      status: 'operational',
      externalId: v1.externalId,
      timing: { timed: true, durationSeconds: 45 },
      words: FAMILIAR_G1.slice(0, 10),
      readingNoteAr: READING_NOTE,
    });
    expect(v2.id).not.toBe(v1.id);
    expect(await stored(v1.id)).toMatchObject({ status: 'retired' });
    expect(await stored(v2.id)).toMatchObject({ source_version_id: v1.id });
    expect((await admin.get(url(v1.id))).json().retiredAt).not.toBeNull();
  });

  it('makes a new draft version of a retired list', async () => {
    const v1 = await createList(admin);
    expect((await admin.post(url(v1.id, 'retire'))).statusCode).toBe(200);
    const res = await admin.patch(url(v1.id), { ifVersion: 1, window: null, readingNoteAr: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      version: 2,
      madeVersion: 2,
      status: 'draft',
      window: null,
      readingNoteAr: null,
    });
    expect(res.json().warnings.map((x: { code: string }) => x.code)).toEqual(['no_reading_note']);
    expect(await statuses(v1.externalId)).toEqual(['1:retired', '2:draft']);
  });

  it('answers 412 stale when ifVersion is not the version edited, and writes nothing', async () => {
    const { v2 } = await twoVersions();
    const before = await rows();
    const res = await admin.patch(url(v2.id), { ifVersion: 1, wordsPerRow: 3 });
    expect(res.statusCode, res.body).toBe(412);
    expect(res.json()).toMatchObject({ code: 'PRECONDITION_FAILED', reason: 'stale' });
    expect(await rows()).toBe(before);
    expect((await admin.get(url(v2.id))).json().wordsPerRow).toBe(5);
  });

  it('answers 409 newer_version_exists for an older version (the second of two editors who read it)', async () => {
    const { v1 } = await twoVersions();
    const before = await rows();
    const res = await admin.patch(url(v1.id), { ifVersion: 1, wordsPerRow: 3 });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'newer_version_exists' });
    expect(await rows()).toBe(before);
  });

  it('refuses an edit that fails the checks with 422 and the validate shape, writing nothing', async () => {
    const v1 = await createList(admin);
    const before = await rows();
    const res = await admin.patch(url(v1.id), { ifVersion: 1, words: FAMILIAR_G1.slice(0, 4) });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      reason: 'too_few_words',
      ok: false,
      reject: { reason: 'too_few_words' },
    });
    const timing = await admin.patch(url(v1.id), { ifVersion: 1, timing: { timed: false, durationSeconds: 60 } });
    expect(timing.json().reason).toBe('untimed_with_duration');
    expect(await rows()).toBe(before);
    expect(await stored(v1.id)).toMatchObject({ status: 'operational', words: FAMILIAR_G1.slice(0, 10) });
  });

  it('answers 422 no_change for a patch that changes nothing', async () => {
    const v1 = await createList(admin);
    const before = await rows();
    const res = await admin.patch(url(v1.id), { ifVersion: 1, words: FAMILIAR_G1.slice(0, 10), window: 'BOY' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'no_change' });
    expect(await rows()).toBe(before);
  });

  it('keeps grade, skill, scope and externalId fixed (the body refuses them)', async () => {
    const v1 = await createList(admin, { publish: false });
    for (const key of ['grade', 'skillId', 'externalId', 'organizationId']) {
      const res = await admin.patch(url(v1.id), { ifVersion: 1, [key]: key === 'grade' ? 2 : 'x' });
      expect(res.statusCode, key).toBe(422);
    }
    expect(await stored(v1.id)).toMatchObject({ version: 1, status: 'draft' });
  });

  it('answers 403 to an organization admin on a global list, 404 on another organization’s or an unknown id', async () => {
    const global = await createList(root);
    const forbidden = await admin.patch(url(global.id), { ifVersion: 1, wordsPerRow: 3 });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('PERMISSION_DENIED');
    const other = await createList(adminB);
    expect((await admin.patch(url(other.id), { ifVersion: 1, wordsPerRow: 3 })).statusCode).toBe(404);
    expect((await admin.patch(url('wl_AAAAAAAAAAAAAA'), { ifVersion: 1, wordsPerRow: 3 })).statusCode).toBe(404);
    expect(await stored(global.id)).toMatchObject({ version: 1, status: 'operational' });
  });
});

describe('POST /api/admin/word-lists/{id}/publish', () => {
  it('makes a draft operational', async () => {
    const draft = await createList(admin, { publish: false });
    const res = await admin.post(url(draft.id, 'publish'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: draft.id, version: 1, status: 'operational' });
    expect(Date.parse(res.json().publishedAt)).not.toBeNaN();
  });

  it('answers 409 invalid_state for an operational or a retired list', async () => {
    const { v1, v2 } = await twoVersions();
    for (const id of [v1.id, v2.id]) {
      const res = await admin.post(url(id, 'publish'));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'CONFLICT', reason: 'invalid_state' });
    }
    expect(await statuses(v1.externalId)).toEqual(['1:retired', '2:operational']);
  });

  it('answers 409 another_version_operational while an older version is operational', async () => {
    // v1 operational → v2 operational (v1 retired) → v2 retired → v3 draft; v1 restored.
    const { v1, v2 } = await twoVersions();
    expect((await admin.post(url(v2.id, 'retire'))).statusCode).toBe(200);
    const v3 = await admin.patch(url(v2.id), { ifVersion: 2, wordsPerRow: 6 });
    expect(v3.json()).toMatchObject({ version: 3, status: 'draft' });
    expect((await admin.post(url(v1.id, 'restore'))).statusCode).toBe(200);
    const res = await admin.post(url(v3.json().id, 'publish'));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().reason).toBe('another_version_operational');
    expect(await statuses(v1.externalId)).toEqual(['1:operational', '2:retired', '3:draft']);
  });

  it('answers 409 newer_version_operational while a newer version is operational', async () => {
    const draft = await createList(admin, { publish: false });
    await storeVersion(draft, 2, 'operational');
    const res = await admin.post(url(draft.id, 'publish'));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().reason).toBe('newer_version_operational');
    expect(await statuses(draft.externalId)).toEqual(['1:draft', '2:operational']);
  });

  it('checks the draft again (422 with the validate shape) and leaves it a draft', async () => {
    const draft = await createList(admin, { publish: false });
    await t.db
      .sql`update content_word_lists set words = ${t.db.sql.array(FAMILIAR_G1.slice(0, 5))}::text[] where id = ${draft.id}`;
    const res = await admin.post(url(draft.id, 'publish'));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ reason: 'too_few_words', ok: false, reject: { reason: 'too_few_words' } });
    expect(await stored(draft.id)).toMatchObject({ status: 'draft' });
  });

  it('lets one of two concurrent publishes of one externalId win; the other gets 409', async () => {
    const draft = await createList(admin, { publish: false });
    const other = await storeVersion(draft, 2, 'draft');
    const results = await Promise.all([admin.post(url(draft.id, 'publish')), admin.post(url(other, 'publish'))]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const loser = results.find((r) => r.statusCode === 409)!.json();
    expect(['newer_version_operational', 'another_version_operational']).toContain(loser.reason);
    expect((await statuses(draft.externalId)).filter((s) => s.endsWith('operational'))).toHaveLength(1);
  });

  it('maps the one-operational-version index to 409 another_version_operational, never a 500', async () => {
    // A writer outside the builder's lock (an import) makes v2 operational while the publish of v1 runs.
    const draft = await createList(admin, { publish: false });
    let inserted!: () => void;
    let release!: () => void;
    const insertedP = new Promise<void>((r) => (inserted = r));
    const gate = new Promise<void>((r) => (release = r));
    const holder = inTransaction(t.db.sql, async ({ sql: tx }) => {
      await tx`
        insert into content_word_lists (id, external_id, scope, organization_id, version, grade, skill_id, words,
                                        status, content_hash, duration_seconds, published_at)
        values (${`wl_live${Date.now() % 1e9}`}, ${draft.externalId}, 'organization', ${w.a.id}, 2, 1,
                'familiar_word_reading', ${tx.array(FAMILIAR_G1.slice(0, 10))}::text[], 'operational', 'x', 60, now())`;
      inserted();
      await gate;
    });
    await insertedP;
    const publishing = admin.post(url(draft.id, 'publish'));
    await waitForLockWait(t.db.sql);
    release();
    await holder;
    const res = await publishing;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().reason).toBe('another_version_operational');
    expect(await statuses(draft.externalId)).toEqual(['1:draft', '2:operational']);
  });

  it('answers 403 to an organization admin on a global draft, 404 on another organization’s', async () => {
    const global = await createList(root, { publish: false });
    expect((await admin.post(url(global.id, 'publish'))).statusCode).toBe(403);
    const other = await createList(adminB, { publish: false });
    expect((await admin.post(url(other.id, 'publish'))).statusCode).toBe(404);
    expect(await stored(global.id)).toMatchObject({ status: 'draft' });
    expect(await stored(other.id)).toMatchObject({ status: 'draft' });
  });
});

describe('POST /api/admin/word-lists/{id}/retire', () => {
  // Grade 4 familiar words in fresh organizations: no other test of this file writes that cell.
  const g4 = { grade: 4, words: FAMILIAR_G4.slice(0, 25) };

  it('retires an operational list; leavesCellEmpty when nothing in its scope chain serves the cell', async () => {
    const org = await freshOrganization(root, `retire-a-${process.pid}`);
    const list = await createList(root, { ...g4, organizationId: org.id, window: 'MOY' });
    const res = await root.post(url(list.id, 'retire'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: list.id, status: 'retired', leavesCellEmpty: true });
    expect(Date.parse(res.json().retiredAt)).not.toBeNaN();
  });

  it('reads the chain school → organization → global, and every window of an all-window list', async () => {
    const org = await freshOrganization(root, `retire-b-${process.pid}`);
    const globalBoy = await createList(root, { ...g4, window: 'BOY' });
    const orgBoy = await createList(root, { ...g4, organizationId: org.id, window: 'BOY' });
    const schoolBoy = await createList(root, { ...g4, schoolId: org.schoolId, window: 'BOY' });
    const orgAll = await createList(root, { ...g4, organizationId: org.id, window: null });
    const leaves = async (id: string) => (await root.post(url(id, 'retire'))).json().leavesCellEmpty;
    expect(await leaves(schoolBoy.id)).toBe(false); // the organization's lists still serve BOY
    expect(await leaves(orgBoy.id)).toBe(false); // the organization's all-window list does
    expect(await leaves(orgAll.id)).toBe(true); // MOY and EOY are left empty (global serves BOY only)
    expect(await leaves(globalBoy.id)).toBe(true); // global's own chain has nothing else
  });

  it('answers 409 invalid_state for a draft or a retired list', async () => {
    const draft = await createList(admin, { publish: false });
    const { v1 } = await twoVersions();
    for (const id of [draft.id, v1.id]) {
      const res = await admin.post(url(id, 'retire'));
      expect(res.statusCode).toBe(409);
      expect(res.json().reason).toBe('invalid_state');
    }
    expect(await stored(draft.id)).toMatchObject({ status: 'draft' });
  });

  it('answers 403 to an organization admin on a global list, 404 on another organization’s', async () => {
    const global = await createList(root);
    expect((await admin.post(url(global.id, 'retire'))).statusCode).toBe(403);
    const other = await createList(adminB);
    expect((await admin.post(url(other.id, 'retire'))).statusCode).toBe(404);
    expect(await stored(global.id)).toMatchObject({ status: 'operational' });
    expect(await stored(other.id)).toMatchObject({ status: 'operational' });
  });
});

describe('POST /api/admin/word-lists/{id}/restore', () => {
  it('follows the restore rules: newer operational 409, then restored in place, then another_version_operational', async () => {
    const { v1, v2 } = await twoVersions();
    const newer = await admin.post(url(v1.id, 'restore'));
    expect(newer.statusCode).toBe(409);
    expect(newer.json().reason).toBe('newer_version_operational');

    expect((await admin.post(url(v2.id, 'retire'))).statusCode).toBe(200);
    const restored = await admin.post(url(v1.id, 'restore'));
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ id: v1.id, version: 1, status: 'operational', retiredAt: null });

    const older = await admin.post(url(v2.id, 'restore'));
    expect(older.statusCode).toBe(409);
    expect(older.json().reason).toBe('another_version_operational');
    expect(await statuses(v1.externalId)).toEqual(['1:operational', '2:retired']);
  });

  it('answers 409 invalid_state for an operational or a draft list', async () => {
    const live = await createList(admin);
    const draft = await createList(admin, { publish: false });
    for (const id of [live.id, draft.id]) {
      const res = await admin.post(url(id, 'restore'));
      expect(res.statusCode).toBe(409);
      expect(res.json().reason).toBe('invalid_state');
    }
  });

  it('checks the list again before it serves (422 language_safety_blocked) and leaves it retired', async () => {
    const list = await createList(admin);
    expect((await admin.post(url(list.id, 'retire'))).statusCode).toBe(200);
    const words = [...FAMILIAR_G1.slice(0, 9), 'ضَعِيف'];
    await t.db.sql`update content_word_lists set words = ${t.db.sql.array(words)}::text[] where id = ${list.id}`;
    const res = await admin.post(url(list.id, 'restore'));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      reason: 'language_safety_blocked',
      reject: { details: [{ field: 'words[9]' }] },
    });
    expect(await stored(list.id)).toMatchObject({ status: 'retired' });
  });

  it('answers 403 to an organization admin on a global list, 404 on another organization’s', async () => {
    const global = await createList(root);
    expect((await root.post(url(global.id, 'retire'))).statusCode).toBe(200);
    expect((await admin.post(url(global.id, 'restore'))).statusCode).toBe(403);
    const other = await createList(adminB);
    expect((await adminB.post(url(other.id, 'retire'))).statusCode).toBe(200);
    expect((await admin.post(url(other.id, 'restore'))).statusCode).toBe(404);
    expect(await stored(global.id)).toMatchObject({ status: 'retired' });
  });
});
