import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { QUICKCODE_SOURCE_FAILURES, QUICKCODE_WINDOW_SECONDS } from '../commands/studentQuickcodeLogin';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

/** A fresh class of organization A with one student holding quickCode 05. */
async function classWithStudent() {
  const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
  const student = await kit.enroll(w.a.adminToken, cls.id, '05');
  return { ...cls, studentId: student.studentId };
}

let ip = 0;
/** A source address no other test uses, so the per-source window starts empty. */
const freshSource = () => `10.0.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

const INVALID = 'QUICKCODE_INVALID_OR_EXPIRED';

describe('POST /api/auth/student/quickcode', () => {
  it('signs a student in with class code and quickCode: tokens for the STUDENT user', async () => {
    const cls = await classWithStudent();
    const res = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, freshSource());
    expect(res.statusCode, res.body).toBe(200);
    const tokens = res.json();
    expect(tokens).toMatchObject({ expiresIn: 900, tokenType: 'Bearer' });
    const me = await kit.as(tokens.accessToken).get('/api/auth/me');
    expect(me.json()).toMatchObject({ id: cls.studentId, primaryPersona: 'STUDENT', organizationId: w.a.id });
  });

  it('gives a refresh token that rotates like an adult one', async () => {
    const cls = await classWithStudent();
    const { refreshToken } = (await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, freshSource())).json();
    const res = await kit.as().post('/api/auth/refresh', { refreshToken });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers an unknown class code with 401 QUICKCODE_INVALID_OR_EXPIRED', async () => {
    const res = await kit.quickcode({ classCode: 'ZZZZ2222', quickCode: '05' }, freshSource());
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(INVALID);
  });

  it('answers a wrong quickCode exactly like an unknown class code', async () => {
    const cls = await classWithStudent();
    const unknown = await kit.quickcode({ classCode: 'ZZZZ3333', quickCode: '05' }, freshSource());
    const wrong = await kit.quickcode({ classCode: cls.loginCode, quickCode: '06' }, freshSource());
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('refuses a deactivated student quickCode with the same answer', async () => {
    const cls = await classWithStudent();
    await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/students/${cls.studentId}/deactivate`), 200);
    const res = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, freshSource());
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(INVALID);
  });

  it('refuses a renewed (superseded) class code at once, and takes the new one', async () => {
    const cls = await classWithStudent();
    const rotated = await kit.ok<{ loginCode: string }>(
      kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/login-code/rotate`, {}),
      200,
    );
    const old = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, freshSource());
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe(INVALID);
    const renewed = await kit.quickcode({ classCode: rotated.loginCode, quickCode: '05' }, freshSource());
    expect(renewed.statusCode, renewed.body).toBe(200);
  });

  it('refuses a lapsed class code with the same answer', async () => {
    const cls = await classWithStudent();
    await kit.lapseCode(cls.id);
    const res = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, freshSource());
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(INVALID);
  });

  it('takes the direct classId form outside production', async () => {
    const cls = await classWithStudent();
    const res = await kit.quickcode({ classId: cls.id, quickCode: '05' }, freshSource());
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a body mixing both forms or a quickCode outside 01-99 with 422', async () => {
    const cls = await classWithStudent();
    for (const body of [
      { classCode: cls.loginCode, classId: cls.id, quickCode: '05' },
      { classCode: cls.loginCode, quickCode: '00' },
      { classCode: cls.loginCode, quickCode: '5' },
    ]) {
      const res = await kit.quickcode(body, freshSource());
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('never locks a class: after many wrong codes on it from many sources, every child with the right code signs in', async () => {
    const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
    const codes = ['05', '06', '07', '08', '09', '10'];
    for (const code of codes) await kit.enroll(w.a.adminToken, cls.id, code);
    // Real parallel requests: 30 wrong guesses (each its own source) race six children typing their own codes.
    const wrong = Array.from({ length: 30 }, (_, i) =>
      kit.quickcode({ classCode: cls.loginCode, quickCode: String(60 + i) }, freshSource()),
    );
    const right = codes.map((quickCode) => kit.quickcode({ classCode: cls.loginCode, quickCode }, freshSource()));
    const [guesses, children] = await Promise.all([Promise.all(wrong), Promise.all(right)]);
    expect(guesses.map((r) => r.json().code)).toEqual(Array(30).fill(INVALID));
    expect(children.map((r) => r.statusCode)).toEqual(Array(codes.length).fill(200));
    // And after the burst, in sequence: the class is still open to the right code.
    const late = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, freshSource());
    expect(late.statusCode, late.body).toBe(200);
  });

  it('gives retryAfter in the body and the same Retry-After header when limited', async () => {
    const source = freshSource();
    for (let i = 0; i < QUICKCODE_SOURCE_FAILURES; i += 1) {
      await kit.quickcode({ classCode: 'ZZZZ4444', quickCode: '05' }, source);
    }
    const res = await kit.quickcode({ classCode: 'ZZZZ4444', quickCode: '05' }, source);
    expect(res.json().code).toBe('QUICKCODE_RATE_LIMIT');
    const { retryAfter } = res.json();
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(QUICKCODE_WINDOW_SECONDS);
    expect(res.headers['retry-after']).toBe(String(retryAfter));
  });

  it(`stops parallel guessing from one source at ${QUICKCODE_SOURCE_FAILURES} failures`, async () => {
    const cls = await classWithStudent();
    const source = freshSource();
    const guesses = Array.from({ length: 40 }, (_, i) =>
      kit.quickcode({ classCode: cls.loginCode, quickCode: String(50 + i) }, source),
    );
    const codes = (await Promise.all(guesses)).map((r) => r.json().code);
    expect(codes.filter((c) => c === INVALID).length).toBeLessThanOrEqual(QUICKCODE_SOURCE_FAILURES);
    expect(codes.filter((c) => c === 'QUICKCODE_RATE_LIMIT').length).toBeGreaterThanOrEqual(
      40 - QUICKCODE_SOURCE_FAILURES,
    );
  });

  it('resets the source window on a successful sign-in', async () => {
    const cls = await classWithStudent();
    const source = freshSource();
    const fail = () => kit.quickcode({ classCode: cls.loginCode, quickCode: '77' }, source);
    for (let i = 0; i < QUICKCODE_SOURCE_FAILURES - 1; i += 1) expect((await fail()).json().code).toBe(INVALID);
    const ok = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, source);
    expect(ok.statusCode, ok.body).toBe(200);
    // A fresh window: another full run of failures before the limit.
    for (let i = 0; i < QUICKCODE_SOURCE_FAILURES; i += 1) expect((await fail()).json().code).toBe(INVALID);
    expect((await fail()).json().code).toBe('QUICKCODE_RATE_LIMIT');
  });

  it(`limits one source to ${QUICKCODE_SOURCE_FAILURES} failures across class codes; other sources still sign in`, async () => {
    const cls = await classWithStudent();
    const source = freshSource();
    for (let i = 0; i < QUICKCODE_SOURCE_FAILURES; i += 1) {
      const unknownCode = `UNKNOWN${String.fromCharCode(65 + i)}`;
      const res = await kit.quickcode({ classCode: unknownCode, quickCode: '05' }, source);
      expect(res.json().code).toBe(INVALID);
    }
    const limited = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, source);
    expect(limited.statusCode).toBe(401);
    expect(limited.json().code).toBe('QUICKCODE_RATE_LIMIT');
    const elsewhere = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, freshSource());
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });

  it('does not count successful logins against the limit', async () => {
    const cls = await classWithStudent();
    const source = freshSource();
    const limit = QUICKCODE_SOURCE_FAILURES + 2;
    for (let i = 0; i < limit; i += 1) {
      const res = await kit.quickcode({ classCode: cls.loginCode, quickCode: '05' }, source);
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});

describe('GET /api/auth/student/class-preview', () => {
  const preview = (classCode: string) => kit.as().get(`/api/auth/student/class-preview?classCode=${classCode}`);

  it('shows class name, grade and school name of a live code, and nothing else', async () => {
    const res = await preview(w.a.classCode);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ className: 'الصف الثاني أ', grade: 2, schoolName: 'مدرسة الأمل' });
  });

  it('answers a code never issued with 404 NOT_FOUND', async () => {
    const res = await preview('QQQQ7777');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('answers a renewed code with 410 CLASS_CODE_EXPIRED', async () => {
    const cls = await classWithStudent();
    await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/login-code/rotate`, {}), 200);
    const res = await preview(cls.loginCode);
    expect(res.statusCode).toBe(410);
    expect(res.json().code).toBe('CLASS_CODE_EXPIRED');
  });

  it('answers a lapsed code with 410 CLASS_CODE_EXPIRED', async () => {
    const cls = await classWithStudent();
    await kit.lapseCode(cls.id);
    const res = await preview(cls.loginCode);
    expect(res.statusCode).toBe(410);
    expect(res.json().code).toBe('CLASS_CODE_EXPIRED');
  });

  it('refuses a malformed or missing class code with 422', async () => {
    for (const url of ['/api/auth/student/class-preview?classCode=abc', '/api/auth/student/class-preview']) {
      const res = await kit.as().get(url);
      expect(res.statusCode, url).toBe(422);
    }
  });
});
