import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { LOCKOUT_FAILURES } from '../commands/login';
import { testKit } from '../testing/testKit';

const { t, w } = useTestWorld();
const kit = testKit(t);

let ip = 0;
const freshSource = () => `10.9.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;
const home = (body: Record<string, unknown>, source = freshSource()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/student/home', payload: body, remoteAddress: source });

/** A fresh class with children on quickCodes 05 and 06; their login cards. */
async function classCards() {
  const cls = await kit.newClass(w.a.adminToken, w.a.schoolId);
  await kit.enroll(w.a.adminToken, cls.id, '05');
  await kit.enroll(w.a.adminToken, cls.id, '06');
  const cards = await kit.ok<{ cards: { studentId: number; quickCode: string; loginName: string }[] }>(
    kit.as(w.a.adminToken).get(`/api/classes/${cls.id}/login-cards`),
    200,
  );
  return { cls, cards: cards.cards };
}

const toArabicIndic = (digits: string) => digits.replace(/[0-9]/g, (d) => String.fromCharCode(0x0660 + Number(d)));

describe('POST /api/auth/student/home', () => {
  it('prints a unique eight-digit loginName on every login card', async () => {
    const { cards } = await classCards();
    for (const card of cards) expect(card.loginName).toMatch(/^[1-9][0-9]{7}$/);
    expect(new Set(cards.map((c) => c.loginName)).size).toBe(cards.length);
    const [row] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from users where primary_persona = 'STUDENT' and login_name is null`;
    expect(row?.n).toBe(0);
  });

  it('signs the child in with loginName and quickCode: the same token pair as the class-code sign-in', async () => {
    const { cards } = await classCards();
    const card = cards[0]!;
    const res = await home({ loginName: card.loginName, quickCode: card.quickCode });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ expiresIn: 900, tokenType: 'Bearer' });
    const me = await kit.as(res.json().accessToken).get('/api/auth/me');
    expect(me.json()).toMatchObject({ id: card.studentId, primaryPersona: 'STUDENT', organizationId: w.a.id });
    const refreshed = await kit.as().post('/api/auth/refresh', { refreshToken: res.json().refreshToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });

  it('takes the name as a parent types it: Arabic-Indic digits, spaces and hyphens', async () => {
    const { cards } = await classCards();
    const card = cards[1]!;
    const typed = `${toArabicIndic(card.loginName.slice(0, 4))} - ${card.loginName.slice(4)}`;
    const res = await home({ loginName: typed, quickCode: card.quickCode });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers a wrong quickCode, an unknown name and a deactivated child alike: 401 QUICKCODE_INVALID_OR_EXPIRED', async () => {
    const { cls, cards } = await classCards();
    const wrong = await home({ loginName: cards[0]!.loginName, quickCode: '42' });
    const unknown = await home({ loginName: '99999999', quickCode: '05' });
    await kit.ok(kit.as(w.a.adminToken).post(`/api/classes/${cls.id}/students/${cards[1]!.studentId}/deactivate`), 200);
    const inactive = await home({ loginName: cards[1]!.loginName, quickCode: cards[1]!.quickCode });
    for (const res of [wrong, unknown, inactive]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(wrong.json());
    }
    expect(wrong.json().code).toBe('QUICKCODE_INVALID_OR_EXPIRED');
  });

  it('refuses a malformed body with 422', async () => {
    for (const body of [{ loginName: 'abcdefgh', quickCode: '05' }, { loginName: '12345678' }, { quickCode: '05' }]) {
      const res = await home(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it(`locks one loginName after ${LOCKOUT_FAILURES} parallel failures, even for the right code; other children still sign in`, async () => {
    const { cards } = await classCards();
    const [target, other] = cards as [(typeof cards)[0], (typeof cards)[0]];
    // Real parallel guesses, each from its own address (the per-source window stays out of the way).
    const guesses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => home({ loginName: target.loginName, quickCode: String(70 + i) })),
    );
    const codes = guesses.map((r) => r.json().code);
    expect(codes.filter((c) => c === 'QUICKCODE_INVALID_OR_EXPIRED').length).toBe(LOCKOUT_FAILURES);
    expect(codes.filter((c) => c === 'BRUTE_FORCE_LOCKED').length).toBe(25 - LOCKOUT_FAILURES);
    const locked = await home({ loginName: target.loginName, quickCode: target.quickCode });
    expect(locked.statusCode).toBe(401);
    expect(locked.json().code).toBe('BRUTE_FORCE_LOCKED');
    expect(locked.json().retryAfter).toBeGreaterThan(0);
    expect(locked.headers['retry-after']).toBe(String(locked.json().retryAfter));
    const elsewhere = await home({ loginName: other.loginName, quickCode: other.quickCode });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });

  it('clears the loginName window on a success', async () => {
    const { cards } = await classCards();
    const card = cards[0]!;
    const fail = () => home({ loginName: card.loginName, quickCode: '88' });
    for (let i = 0; i < LOCKOUT_FAILURES - 1; i += 1)
      expect((await fail()).json().code).toBe('QUICKCODE_INVALID_OR_EXPIRED');
    expect((await home({ loginName: card.loginName, quickCode: card.quickCode })).statusCode).toBe(200);
    for (let i = 0; i < LOCKOUT_FAILURES; i += 1)
      expect((await fail()).json().code).toBe('QUICKCODE_INVALID_OR_EXPIRED');
    expect((await fail()).json().code).toBe('BRUTE_FORCE_LOCKED');
  });
});
