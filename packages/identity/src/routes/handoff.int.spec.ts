import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';

const { t, w } = useTestWorld();
const anon = () => client(t.app);
const issue = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await client(t.app, token).post('/api/auth/handoff-codes', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { code: string; expiresAt: string; expiresIn: number };
};
const redeem = (code: string) => anon().post('/api/auth/handoff-codes/redeem', { code });
const meOf = async (accessToken: string) => (await client(t.app, accessToken).get('/api/auth/me')).json();

describe('handoff codes', () => {
  it('a teacher hands her student a session on the tablet: the code redeems once for the student', async () => {
    const issued = await issue(w.a.teacherToken, { studentId: w.a.studentId });
    expect(issued.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(issued.expiresIn).toBe(120);
    const left = (Date.parse(issued.expiresAt) - Date.now()) / 1000;
    expect(left).toBeGreaterThan(100);
    expect(left).toBeLessThanOrEqual(121);

    const res = await redeem(issued.code.toLowerCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    expect(await meOf(res.json().accessToken)).toMatchObject({ id: w.a.studentId, primaryPersona: 'STUDENT' });

    const again = await redeem(issued.code);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('STATE_EXPIRED');
  });

  it('without a studentId the caller hands over their own session', async () => {
    const { code } = await issue(w.a.parentToken);
    const res = await redeem(code);
    expect(res.statusCode).toBe(200);
    expect(await meOf(res.json().accessToken)).toMatchObject({ id: w.a.parentId, primaryPersona: 'PARENT' });
  });

  it('an expired code and an unknown code are 401 STATE_EXPIRED', async () => {
    const { code } = await issue(w.a.teacherToken, { studentId: w.a.studentId });
    await t.db.sql`update auth_handoff_codes set expires_at = now() - interval '1 second' where consumed_at is null`;
    for (const c of [code, 'ZZZZZZZZZZ']) {
      const res = await redeem(c);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'STATE_EXPIRED' });
    }
  });

  it('of parallel redeems of one code exactly one wins (compare-and-set)', async () => {
    const { code } = await issue(w.a.teacherToken, { studentId: w.a.studentId });
    const results = await Promise.all(Array.from({ length: 12 }, () => redeem(code)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(11);
    for (const r of results.filter((r) => r.statusCode === 401)) expect(r.json().code).toBe('STATE_EXPIRED');
  });

  it('tenant before permission: another organization or missing student 404; unrelated in the org 403', async () => {
    const post = (token: string, studentId: number) =>
      client(t.app, token).post('/api/auth/handoff-codes', { studentId });
    expect((await post(w.a.teacherToken, w.b.studentId)).statusCode).toBe(404);
    expect((await post(w.a.teacherToken, 999_999)).statusCode).toBe(404);
    const parent = await post(w.a.parentToken, w.a.studentId);
    expect(parent.statusCode).toBe(403);
    expect(parent.json().code).toBe('PERMISSION_DENIED');
    expect((await post(w.a.otherTeacherToken, w.a.studentId)).statusCode).toBe(403);
    expect((await post(w.a.adminToken, w.a.studentId)).statusCode).toBe(201);
  });

  it('a malformed code is 422 and an anonymous issue is 401', async () => {
    const bad = await anon().post('/api/auth/handoff-codes/redeem', { code: 'short' });
    expect(bad.statusCode).toBe(422);
    const anonymousIssue = await anon().post('/api/auth/handoff-codes', {});
    expect(anonymousIssue.statusCode).toBe(401);
  });
});
