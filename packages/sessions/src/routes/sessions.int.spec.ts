import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoFiles } from '@qiraa/assessment/testing';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { blueprint, operationalBlueprints } from '../testing/blueprintKit';
import { accepted, decide, draft, enrol } from '../testing/sessionKit';

const { t, w } = useTestWorld();
const su = () => client(t.app, w.superToken);
const teacher = () => client(t.app, w.a.teacherToken);

let bp: string;
let thinBp: string;
const students: Record<'sara' | 'omar' | 'held', number> = { sara: 0, omar: 0, held: 0 };

beforeAll(async () => {
  await importDemoFiles(t.db.sql, ['training-word-building.json', 'training-initial-sound.json']);
  const admin = client(t.app, w.a.adminToken);
  students.sara = await enrol(admin, w.a.classId, 'سارة أحمد', 'female');
  students.omar = await enrol(admin, w.a.classId, 'عمر خالد', 'male');
  students.held = await enrol(admin, w.a.classId, 'ليلى سمير');
  await decide(t.db.sql, students.sara, 'sb_word_building', 'beginning');
  await decide(t.db.sql, students.omar, 'sb_word_building', 'developing');
  await decide(t.db.sql, students.held, 'sb_word_building', null);
  await decide(t.db.sql, w.a.studentId, 'sb_word_building', 'strong');
  const made = await operationalBlueprints(su(), [
    blueprint({ externalId: 'life-wb' }),
    blueprint({ externalId: 'life-thin', subSkillIds: ['pa_initial_sound'], theme: 'school' }),
  ]);
  [bp, thinBp] = made.ids as [string, string];
}, 120_000);

const get = async (api: Client, id: string) => (await api.get(`/api/sessions/${id}`)).json();

describe('session lifecycle', () => {
  it('from-blueprint makes a draft pinned to the blueprint version; edit keeps 1 to 5 sub-skills and warns on thin coverage', async () => {
    const res = await teacher().post('/api/sessions/from-blueprint', { classId: w.a.classId, blueprintId: bp });
    expect(res.statusCode).toBe(201);
    const session = res.json();
    expect(session).toMatchObject({
      status: 'draft',
      blueprint: { id: bp, version: 1, externalId: 'life-wb' },
      subSkillIds: ['sb_word_building'],
      theme: 'market',
      advisories: [],
      recipients: [],
    });
    const edited = await teacher().patch(`/api/sessions/${session.id}/edit`, {
      subSkillIds: ['sb_word_building', 'pa_initial_sound'],
      theme: 'nature',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      theme: 'nature',
      advisories: [{ code: 'thin_item_coverage', subSkillIds: ['pa_initial_sound'] }],
    });
    const six = [
      'sb_word_building',
      'pa_initial_sound',
      'ls_short_vowels',
      'ls_long_vowels',
      'pa_final_sound',
      'fw_common_words',
    ];
    expect((await teacher().patch(`/api/sessions/${session.id}/edit`, { subSkillIds: six })).statusCode).toBe(422);
    expect((await teacher().patch(`/api/sessions/${session.id}/edit`, { subSkillIds: [] })).statusCode).toBe(422);
    expect(
      (await teacher().patch(`/api/sessions/${session.id}/edit`, { subSkillIds: ['ra_word_family'] })).json(),
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      reason: 'unknown_sub_skill',
    });
    expect((await teacher().patch(`/api/sessions/${session.id}/edit`, { note: 'free text' })).statusCode).toBe(422);
  });

  it('accept holds out do_not_decide_yet students, freezes medium and items; include takes a fixed code; no edit after', async () => {
    const id = await draft(teacher(), w.a.classId, bp);
    const session = await accepted(teacher(), id, { deliveryMode: 'printable' });
    expect(session.status).toBe('previewed');
    expect(session.notIncluded).toEqual([
      { studentId: students.held, fullNameAr: 'ليلى سمير', reason: 'do_not_decide_yet' },
    ]);
    expect(session.recipients.map((r: { studentId: number }) => r.studentId).sort()).toEqual(
      [w.a.studentId, students.sara, students.omar].sort(),
    );
    expect((await teacher().patch(`/api/sessions/${id}/edit`, { theme: 'sea' })).json()).toMatchObject({
      reason: 'not_draft',
    });
    expect((await teacher().post(`/api/sessions/${id}/accept`, { deliveryMode: 'online' })).statusCode).toBe(409);
    const include = `/api/sessions/${id}/recipients/${students.held}/include`;
    expect((await teacher().post(include, { overrideCode: 'because I said so' })).statusCode).toBe(422);
    const after = await teacher().post(include, { overrideCode: 'teacher_observed_need' });
    expect(after.statusCode).toBe(200);
    expect(after.json().notIncluded).toEqual([]);
    expect(after.json().recipients.find((r: { studentId: number }) => r.studentId === students.held)).toMatchObject({
      overrideCode: 'teacher_observed_need',
      medium: 'printable',
    });
    expect((await teacher().post(include, { overrideCode: 'teacher_observed_need' })).json().reason).toBe(
      'already_included',
    );
    expect(
      (
        await teacher().post(`/api/sessions/${id}/recipients/${w.b.studentId}/include`, {
          overrideCode: 'teacher_observed_need',
        })
      ).statusCode,
    ).toBe(404);

    const audit = (await su().get(`/api/sessions/${id}/audit`)).json();
    expect(audit.pins).toMatchObject({
      blueprintId: bp,
      blueprintVersion: 1,
      decisionRuleSetVersion: 'v1',
      catalogVersion: expect.any(String),
    });
    expect(audit.pins.itemBankPinId).toEqual(expect.any(String));
    const sara = audit.snapshot.slots.find((s: { studentId: number }) => s.studentId === students.sara);
    const strong = audit.snapshot.slots.find((s: { studentId: number }) => s.studentId === w.a.studentId);
    expect(sara.itemIds).toHaveLength(3);
    // Items follow the child's standing status (SIT-01): a beginning and a strong reader differ.
    expect(sara.itemIds).not.toEqual(strong.itemIds);
    expect(audit.snapshot.counts).toMatchObject({ students: 4, included: 4, heldOut: 0, overridden: 1, printable: 4 });
    expect(audit.log.map((l: { action: string }) => l.action)).toEqual(['created', 'accepted', 'recipient_included']);
  });

  it('generate-pdfs: one PDF per printed child in a ZIP, then delivered; a filter failure is 422 for the whole batch', async () => {
    const id = await draft(teacher(), w.a.classId, bp);
    await accepted(teacher(), id, { deliveryMode: 'printable' });
    // The language rule set has tightened since the import: the stored title no longer passes.
    const [stored] = await t.db.sql<{ title_ar: string }[]>`select title_ar from ses_blueprints where id = ${bp}`;
    await t.db.sql`update ses_blueprints set title_ar = 'أنت غبي' where id = ${bp}`;
    const refused = await teacher().post(`/api/sessions/${id}/generate-pdfs`);
    await t.db.sql`update ses_blueprints set title_ar = ${stored!.title_ar} where id = ${bp}`;
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'language_safety_blocked' });
    expect((await get(teacher(), id)).status).toBe('previewed');
    const [count] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from ses_session_students where session_id = ${id} and pdf_sha256 is not null`;
    expect(count!.n).toBe(0);

    const res = await teacher().post(`/api/sessions/${id}/generate-pdfs`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(
      [w.a.studentId, students.sara, students.omar].map((s) => `student-${s}.pdf`).sort(),
    );
    for (const pdf of Object.values(files)) expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    const after = await get(teacher(), id);
    expect(after).toMatchObject({ status: 'delivered', deliveredBy: 'generate_pdfs' });
    expect(after.recipients.every((r: { pdfGenerated: boolean }) => r.pdfGenerated)).toBe(true);
    // Again after delivery: the same bytes, nothing changes.
    const again = await teacher().post(`/api/sessions/${id}/generate-pdfs`);
    expect(Buffer.compare(again.rawPayload, res.rawPayload)).toBe(0);
    expect((await teacher().post(`/api/sessions/${id}/distribute-online`)).json().reason).toBe(
      'delivery_mode_mismatch',
    );
  });

  it('distribute-online queues each child once under parallel calls and delivers', async () => {
    const id = await draft(teacher(), w.a.classId, bp);
    await accepted(teacher(), id, { deliveryMode: 'online' });
    const calls = await Promise.all([1, 2, 3].map(() => teacher().post(`/api/sessions/${id}/distribute-online`)));
    expect(calls.map((c) => c.statusCode)).toEqual([200, 200, 200]);
    const queued = calls.flatMap((c) => c.json().online.queued as number[]).sort();
    expect(queued).toEqual([w.a.studentId, students.sara, students.omar].sort());
    expect((await get(teacher(), id)).status).toBe('delivered');
    const [count] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from ses_session_log where session_id = ${id} and action = 'delivered'`;
    expect(count!.n).toBe(1);
  });

  it('deliver-mixed: online children queued, printed children get sheets, delivered', async () => {
    const id = await draft(teacher(), w.a.classId, bp);
    await accepted(teacher(), id, { deliveryMode: 'mixed', printedStudentIds: [students.sara] });
    expect((await teacher().post(`/api/sessions/${id}/generate-pdfs`)).statusCode).toBe(200);
    expect((await get(teacher(), id)).status).toBe('previewed');
    const res = await teacher().post(`/api/sessions/${id}/deliver-mixed`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'delivered',
      online: { queued: [w.a.studentId, students.omar].sort((a, b) => a - b) },
      printed: { studentIds: [students.sara] },
    });
    expect((await get(teacher(), id)).deliveredBy).toBe('deliver_mixed');
    expect(
      (
        await teacher().post(`/api/sessions/${id}/accept`, {
          deliveryMode: 'mixed',
          printedStudentIds: [w.b.studentId],
        })
      ).statusCode,
    ).toBe(409);
  });

  it('cancel: draft only, still listed under recently generated', async () => {
    const id = await draft(teacher(), w.a.classId, thinBp);
    const cancelled = await teacher().post(`/api/sessions/${id}/cancel`);
    expect(cancelled.json().status).toBe('cancelled');
    expect((await teacher().post(`/api/sessions/${id}/cancel`)).json().reason).toBe('not_draft');
    expect((await teacher().post(`/api/sessions/${id}/accept`, { deliveryMode: 'online' })).statusCode).toBe(409);
    const recent = (await teacher().get(`/api/sessions/recently-generated?classId=${w.a.classId}`)).json();
    expect(recent.sessions[0]).toMatchObject({ id, status: 'cancelled' });
  });

  it('recently generated: keyset pages with an opaque nextCursor walk every session once, newest first', async () => {
    for (let i = 0; i < 3; i += 1) await draft(teacher(), w.a.classId, thinBp);
    const url = `/api/sessions/recently-generated?classId=${w.a.classId}`;
    const all = (await teacher().get(`${url}&limit=100`)).json();
    expect(all.nextCursor).toBeNull();
    expect(all.sessions.length).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await teacher().get(`${url}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json().sessions.map((x: { id: string }) => x.id));
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.sessions.map((x: { id: string }) => x.id));
    const forged = await teacher().get(`${url}&cursor=garbage`);
    expect([forged.statusCode, forged.json().reason]).toEqual([422, 'invalid_cursor']);
  });

  it('tenant and permission: another organization 404, another teacher 403, a pending blueprint 422', async () => {
    const id = await draft(teacher(), w.a.classId, bp);
    const teacherB = client(t.app, w.b.teacherToken);
    expect((await teacherB.get(`/api/sessions/${id}`)).statusCode).toBe(404);
    expect((await teacherB.post(`/api/sessions/${id}/cancel`)).statusCode).toBe(404);
    expect((await client(t.app, w.a.otherTeacherToken).get(`/api/sessions/${id}`)).statusCode).toBe(403);
    expect((await client(t.app, w.a.principalToken).get(`/api/sessions/${id}`)).statusCode).toBe(403);
    expect((await client(t.app, w.a.adminToken).get(`/api/sessions/${id}/audit`)).statusCode).toBe(200);
    expect((await client(t.app, w.b.adminToken).get(`/api/sessions/${id}/audit`)).statusCode).toBe(404);
    const pending = (await su().post('/api/session-blueprints/import', { blueprints: [blueprint()] })).json();
    expect(
      (
        await teacher().post('/api/sessions/from-blueprint', {
          classId: w.a.classId,
          blueprintId: pending.rows[0].blueprintId,
        })
      ).json(),
    ).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'blueprint_not_operational' });
    const grade1 = (await operationalBlueprints(su(), [blueprint({ grade: 1 })])).ids[0]!;
    expect(
      (await teacher().post('/api/sessions/from-blueprint', { classId: w.a.classId, blueprintId: grade1 })).json()
        .reason,
    ).toBe('grade_mismatch');
  });
});

describe('catalog', () => {
  it('lists operational blueprints with filters and cursor paging', async () => {
    const all = (await teacher().get('/api/sessions/catalog?grade=2&limit=1')).json();
    expect(all.blueprints).toHaveLength(1);
    expect(all.nextCursor).toEqual(expect.any(String));
    const next = (await teacher().get(`/api/sessions/catalog?grade=2&limit=1&cursor=${all.nextCursor}`)).json();
    expect(next.blueprints[0].id).not.toBe(all.blueprints[0].id);
    const bySkill = (await teacher().get('/api/sessions/catalog?subSkillId=pa_initial_sound')).json();
    expect(bySkill.blueprints.map((b: { id: string }) => b.id)).toEqual([thinBp]);
    expect(
      (await teacher().get('/api/sessions/catalog?theme=school')).json().blueprints.map((b: { id: string }) => b.id),
    ).toContain(thinBp);
    expect(
      (await teacher().get('/api/sessions/catalog?keyword=life-wb')).json().blueprints.map((b: { id: string }) => b.id),
    ).toEqual([bp]);
    expect((await teacher().get('/api/sessions/catalog?keyword=phonics')).json().blueprints.length).toBeGreaterThan(1);
    expect((await client(t.app, w.a.parentToken).get('/api/sessions/catalog')).statusCode).toBe(403);
  });

  it('recommended ranks by students with an active need weighted by support level', async () => {
    const res = (await teacher().get(`/api/sessions/catalog/recommended?classId=${w.a.classId}`)).json();
    const top = res.recommendations[0];
    expect(top.blueprint.subSkillIds).toContain('sb_word_building');
    // Sara beginning (3) + Omar developing (2); the held-out child (do_not_decide_yet) counts 0.
    expect(top).toMatchObject({ score: 5, studentsWithNeed: 2, bySupportLevel: { intensive: 1, strategic: 1 } });
    const thin = res.recommendations.find((r: { blueprint: { id: string } }) => r.blueprint.id === thinBp);
    expect(thin.score).toBe(0);
    expect(
      (await client(t.app, w.b.teacherToken).get(`/api/sessions/catalog/recommended?classId=${w.a.classId}`))
        .statusCode,
    ).toBe(404);
  });
});

describe('rate limit', () => {
  it('31 parallel creations by one teacher: 30 drafts and one 429 RATE_LIMITED with retryAfter', async () => {
    const other = client(t.app, w.a.otherTeacherToken);
    const otherClassBp = (await operationalBlueprints(su(), [blueprint()])).ids[0]!;
    const create = () =>
      other.post('/api/sessions/from-blueprint', { classId: w.a.otherClassId, blueprintId: otherClassBp });
    let results = await Promise.all(Array.from({ length: 31 }, create));
    // The creations queue for the teacher's lock, each on a connection: under a loaded machine some wait past
    // the pool bound and answer 503 (fail fast, nothing written), which a client sends again, as here.
    for (let round = 0; round < 5 && results.some((r) => r.statusCode === 503); round++) {
      results = await Promise.all(results.map((r) => (r.statusCode === 503 ? create() : r)));
    }
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes, results.map((r) => r.body).join('\n')).toEqual([...Array(30).fill(201), 429]);
    const limited = results.find((r) => r.statusCode === 429)!;
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    expect(limited.json().retryAfter).toBeGreaterThan(0);
    expect(limited.headers['retry-after']).toBe(String(limited.json().retryAfter));
    // Another teacher's window is their own.
    expect(
      (await teacher().post('/api/sessions/from-blueprint', { classId: w.a.classId, blueprintId: bp })).statusCode,
    ).toBe(201);
  }, 120_000);
});
