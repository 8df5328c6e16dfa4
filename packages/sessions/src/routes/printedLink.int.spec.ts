import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoFiles } from '@qiraa/assessment/testing';
import { inTransaction } from '@qiraa/db';
import { loadLanguageSafety, normalizeArabic, reloadLanguageSafety } from '@qiraa/language-safety';
import { pdfPagePng } from '@qiraa/pdf-kit/testing';
import { unzipSync } from 'fflate';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { THEME_LABELS_AR } from '../codes';
import { blueprint, operationalBlueprints } from '../testing/blueprintKit';
import { accepted, decide, draft } from '../testing/sessionKit';

/**
 * The printed sheet's QR code, followed: the PDF the teacher downloads is rendered (pdftoppm), the code found
 * in the pixels and decoded (jsqr), and the link it holds opened on this service with and without tokens.
 */
const { t, w } = useTestWorld();
let teacher: Client;
let otherChild: Client;
let otherChildId: number;
let sessionId: string;
let linkPath: string;

async function qrOf(pdf: Uint8Array): Promise<string> {
  const png = PNG.sync.read(await pdfPagePng(pdf, 1, 150));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code found on the page');
  return code.data;
}

beforeAll(async () => {
  await importDemoFiles(t.db.sql, ['training-word-building.json']);
  teacher = client(t.app, w.a.teacherToken);
  const su = client(t.app, w.superToken);
  const made = await su.post('/api/users', {
    primaryPersona: 'STUDENT',
    fullNameAr: 'يوسف',
    classId: w.a.classId,
    quickCode: '11',
  });
  expect(made.statusCode, made.body).toBe(201);
  otherChildId = made.json().id;
  const login = await client(t.app).post('/api/auth/student/quickcode', {
    classCode: w.a.classCode,
    quickCode: '11',
  });
  expect(login.statusCode, login.body).toBe(200);
  otherChild = client(t.app, login.json().accessToken);
  await decide(t.db.sql, w.a.studentId, 'sb_word_building', 'beginning');
  const { ids } = await operationalBlueprints(su, [blueprint({ externalId: 'printed-link' })]);
  sessionId = await draft(teacher, w.a.classId, ids[0]!);
  await accepted(teacher, sessionId, { deliveryMode: 'printable' });
  const zip = await teacher.post(`/api/sessions/${sessionId}/generate-pdfs`);
  expect(zip.statusCode, zip.body).toBe(200);
  const pdf = unzipSync(new Uint8Array(zip.rawPayload))[`student-${w.a.studentId}.pdf`]!;
  const link = await qrOf(pdf);
  expect(link).toMatch(/^https:\/\/qiraa\.app\/s\/sst_[A-Za-z0-9]{14}$/);
  linkPath = new URL(link).pathname;
}, 180_000);

describe('the printed sheet’s QR link', () => {
  it('without a token: 401 that says how to sign in, the same for every slot, nothing about the child', async () => {
    const res = await client(t.app).get(linkPath);
    expect(res.statusCode).toBe(401);
    const body = res.json();
    expect(body.code).toBe('TOKEN_MISSING');
    expect(body.message).toContain('/api/auth/student/quickcode');
    expect(body.details[0].field).toBe('authorization');
    for (const secret of [String(w.a.studentId), 'سارة', sessionId, linkPath.slice(3)]) {
      expect(res.body).not.toContain(secret);
    }
    const unknown = await client(t.app).get('/s/sst_AAAAAAAAAAAAAA');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(body);
  });

  it('another child’s token: 404; an adult of the organization: 403; another organization: 404', async () => {
    expect((await otherChild.get(linkPath)).statusCode).toBe(404);
    expect((await teacher.get(linkPath)).statusCode).toBe(403);
    expect((await client(t.app, w.b.studentToken).get(linkPath)).statusCode).toBe(404);
    expect((await client(t.app, w.b.teacherToken).get(linkPath)).statusCode).toBe(404);
    expect((await client(t.app, w.a.studentToken).get('/s/sst_AAAAAAAAAAAAAA')).statusCode).toBe(404);
    // Opening it for nobody queued nothing.
    const [slot] = await t.db.sql<{ online_queued_at: Date | null }[]>`
      select online_queued_at from ses_session_students where session_id = ${sessionId} and student_id = ${w.a.studentId}`;
    expect(slot!.online_queued_at).toBeNull();
    expect(otherChildId).toBeGreaterThan(0);
  });

  it('the child’s own token: 200 with the session, which is now in the child’s practice queue', async () => {
    const child = client(t.app, w.a.studentToken);
    const res = await child.get(linkPath);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      sessionId,
      slotId: linkPath.slice(3),
      queued: true,
      progress: { answered: 0, completedAt: null },
      practice: '/api/practice/queues/current/next-item',
    });
    const state = await child.get('/api/practice/queues/current/state');
    expect(state.json()).toMatchObject({ sessionId, training: { phase: 'session' } });
    const next = await child.get('/api/practice/queues/current/next-item');
    expect(next.json()).toMatchObject({ sessionId, training: { phase: 'session' } });

    // Opened again: the same answer, logged once; the teacher sees when.
    expect((await child.get(linkPath)).statusCode).toBe(200);
    const log = await t.db
      .sql`select 1 from ses_session_log where session_id = ${sessionId} and action = 'link_opened'`;
    expect(log).toHaveLength(1);
    const view = (await teacher.get(`/api/sessions/${sessionId}`)).json();
    const mine = view.recipients.find((r: { studentId: number }) => r.studentId === w.a.studentId);
    expect(mine.linkOpenedAt).toEqual(expect.any(String));
  });

  // Issue 24, item 7: every text served to a student passes the rule set in force, not only the one it was written under.
  it('serves the title, instruction and theme through the rule set in force: a stricter one reaches a stored blueprint', async () => {
    const filter = await loadLanguageSafety(t.runtime.deps.sql);
    for (const label of Object.values(THEME_LABELS_AR))
      expect(filter.check(label, 'general'), label).toEqual({ kind: 'pass' });
    const child = client(t.app, w.a.studentToken);
    const first = (await child.get(linkPath)).json();
    const [stored] = await t.db.sql<{ title_ar: string; intro_ar: string }[]>`
      select b.title_ar, b.intro_ar from ses_sessions x join ses_blueprints b on b.id = x.blueprint_id
      where x.id = ${sessionId}`;
    expect(first).toMatchObject({ titleAr: stored!.title_ar, introAr: stored!.intro_ar });

    // Version n+1 repeats every rule and adds one on the title's longest word (forward-only, like a migration).
    const word = normalizeArabic(stored!.title_ar)
      .split(/[^\p{L}]+/u)
      .reduce((a, b) => (b.length > a.length ? b : a), '');
    expect(word.length).toBeGreaterThan(2);
    await inTransaction(t.db.sql, async ({ sql: tx }) => {
      const [{ v }] = (await tx`select max(version) + 1 as v from language_safety_rule_sets`) as unknown as [
        { v: number },
      ];
      await tx`insert into language_safety_rule_sets (version, description) values (${v}, 'stricter: test')`;
      await tx`
        insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, match_regex,
                                           case_sensitive, replacement, example, gloss)
        select ${v}, rule_id, tier, kind, match_text, match_regex, case_sensitive, replacement, example, gloss
        from language_safety_rules where rule_set_version = ${v} - 1`;
      await tx`
        insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, replacement, example, gloss)
        values (${v}, 'LS-DEF-999', 'general', 'word', ${word}, 'كلمة', ${word}, 'the served title''s word, refused now')`;
    });
    const expected = (await reloadLanguageSafety(t.runtime.deps.sql)).check(stored!.title_ar, 'general');
    expect(expected.kind).toBe('rewrite');

    const again = await child.get(linkPath);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().titleAr).toBe(expected.kind === 'rewrite' ? expected.rewritten : null);
    expect(again.json().introAr).toBe(stored!.intro_ar);
    const [still] = await t.db.sql<{ title_ar: string }[]>`
      select b.title_ar from ses_sessions x join ses_blueprints b on b.id = x.blueprint_id where x.id = ${sessionId}`;
    expect(still!.title_ar).toBe(stored!.title_ar);
  });
});
