import { client, TEST_JWT_SECRET, useTestApp } from '@qiraa/app/testing';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// This file inspects and times the real password cost; the rest of the suite signs up at the minimal one
// (vitest.config.ts). Set before useTestApp's hooks run, given back when the file ends (files share a worker).
const suiteCost = process.env.QIRAA_PASSWORD_COST;
process.env.QIRAA_PASSWORD_COST = 'full';
afterAll(() => {
  process.env.QIRAA_PASSWORD_COST = suiteCost;
});

const PASSWORD = 'correct horse battery';
const t = useTestApp();
let superToken: string;
let orgId: string;

const anon = () => client(t.app);
const login = (email: string, password = PASSWORD) => anon().post('/api/auth/login', { email, password });

async function newTeacher(email: string) {
  const res = await client(t.app, superToken).post('/api/users', {
    primaryPersona: 'TEACHER',
    email,
    password: PASSWORD,
    fullNameAr: 'معلمة',
    organizationId: orgId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

beforeAll(async () => {
  const reg = await anon().post('/api/auth/register', {
    email: 'Root@Qiraa.test',
    password: PASSWORD,
    fullNameAr: 'المشرف',
    primaryPersona: 'ADMIN',
  });
  expect(reg.statusCode, reg.body).toBe(201);
  superToken = reg.json().tokens.accessToken;
  const org = await client(t.app, superToken).post('/api/organizations', {
    name: 'منظمة',
    slug: 'auth-org',
    country: 'JO',
    defaultLocale: 'ar-JO',
  });
  orgId = org.json().id;
});

describe('register', () => {
  it('created the first user as a super-scope ADMIN with tokens', async () => {
    const me = await client(t.app, superToken).get('/api/auth/me');
    expect(me.json()).toMatchObject({
      email: 'root@qiraa.test',
      primaryPersona: 'ADMIN',
      organizationId: null,
      permissions: expect.arrayContaining(['SUPER_ADMIN', 'MANAGE_ORG', 'RUN_BACKOFFICE']),
      features: { teacherV3: false },
    });
  });

  it('is closed once a user exists: 403 PERMISSION_DENIED', async () => {
    const res = await anon().post('/api/auth/register', {
      email: 'second@qiraa.test',
      password: PASSWORD,
      fullNameAr: 'ثان',
      primaryPersona: 'ADMIN',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PERMISSION_DENIED');
  });

  it('refuses a password under 8 or over 128 characters with 422 naming the field', async () => {
    for (const password of ['short77', 'x'.repeat(129)]) {
      const res = await anon().post('/api/auth/register', {
        email: 'p@qiraa.test',
        password,
        fullNameAr: 'ث',
        primaryPersona: 'ADMIN',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toContainEqual(expect.objectContaining({ field: 'password' }));
    }
  });
});

describe('login', () => {
  it('answers an unknown email and a wrong password alike, with about the same work', async () => {
    await newTeacher('alike@qiraa.test');
    const unknown = await login('nobody@qiraa.test', 'wrong password');
    const wrong = await login('alike@qiraa.test', 'wrong password');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.json().code).toBe('INVALID_CREDENTIALS');
    // Both paths run one argon2id verification (~tens of ms); a skipped hash would be ~100x faster.
    const median = async (email: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        await login(email, `wrong-${i}-password`);
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const ratio = (await median('nobody2@qiraa.test')) / (await median('alike@qiraa.test'));
    expect(ratio).toBeGreaterThan(0.3);
    expect(ratio).toBeLessThan(3);
  });

  it('stores argon2id hashes with m >= 19 MiB and t >= 2', async () => {
    const [row] = await t.db.sql<
      { password_hash: string }[]
    >`select password_hash from users where email = 'root@qiraa.test'`;
    const [, kind, , params] = row!.password_hash.split('$');
    const p = Object.fromEntries(params!.split(',').map((kv) => kv.split('=')));
    expect(kind).toBe('argon2id');
    expect(Number(p.m)).toBeGreaterThanOrEqual(19_456);
    expect(Number(p.t)).toBeGreaterThanOrEqual(2);
  });

  it('returns the token pair for the right password', async () => {
    await newTeacher('ok@qiraa.test');
    const res = await login('OK@qiraa.test');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    expect(res.json().refreshToken.length).toBeGreaterThanOrEqual(22);
  });

  it('locks the account after 10 failures in 15 minutes, even for the right password', async () => {
    await newTeacher('locked@qiraa.test');
    for (let i = 0; i < 10; i++) expect((await login('locked@qiraa.test', 'wrong password')).statusCode).toBe(401);
    const res = await login('locked@qiraa.test');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('BRUTE_FORCE_LOCKED');
    expect(res.json().retryAfter).toBeGreaterThan(800);
    expect(res.headers['retry-after']).toBe(String(res.json().retryAfter));
  });

  it('resets the failure window on a success', async () => {
    await newTeacher('reset@qiraa.test');
    for (let i = 0; i < 9; i++) await login('reset@qiraa.test', 'wrong password');
    expect((await login('reset@qiraa.test')).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) await login('reset@qiraa.test', 'wrong password');
    expect((await login('reset@qiraa.test')).statusCode).toBe(200);
  });
});

describe('access tokens', () => {
  const sign = (payload: Record<string, unknown>, key = TEST_JWT_SECRET) =>
    createSigner({ key, algorithm: 'HS256' })(payload);
  const me = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authorization ? { authorization } : {} });

  it('is required: absent → 401 TOKEN_MISSING', async () => {
    expect((await me()).json().code).toBe('TOKEN_MISSING');
  });

  it('expires: → 401 TOKEN_EXPIRED', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = sign({ sub: '1', persona: 'ADMIN', org: null, iat: now - 1000, exp: now - 10 });
    const res = await me(`Bearer ${token}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_EXPIRED');
  });

  it('refuses malformed, tampered, foreign-key and alg:none tokens with 401 TOKEN_INVALID', async () => {
    const [header, payload] = superToken.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: '1', persona: 'ADMIN', org: null })).toString('base64url');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const token of [
      'abc',
      `${header}.${forged}.${superToken.split('.')[2]}`,
      sign({ sub: '1', persona: 'ADMIN', org: null }, 'another-secret-another-secret-0000000'),
      none,
    ]) {
      const res = await me(`Bearer ${token}`);
      expect(res.statusCode, token).toBe(401);
      expect(res.json().code).toBe('TOKEN_INVALID');
    }
  });

  it('stops working at once when the user is disabled', async () => {
    await newTeacher('disabled@qiraa.test');
    const token = (await login('disabled@qiraa.test')).json().accessToken;
    expect((await me(`Bearer ${token}`)).statusCode).toBe(200);
    await t.db.sql`update users set disabled_at = now() where email = 'disabled@qiraa.test'`;
    const res = await me(`Bearer ${token}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('SESSION_REVOKED');
  });

  it('stops working at once when the organization is disabled', async () => {
    await newTeacher('orgoff@qiraa.test');
    const token = (await login('orgoff@qiraa.test')).json().accessToken;
    await t.db.sql`update organizations set disabled_at = now() where id = ${orgId}`;
    try {
      expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
    } finally {
      await t.db.sql`update organizations set disabled_at = null where id = ${orgId}`;
    }
  });
});

describe('refresh tokens', () => {
  const refresh = (refreshToken: string) => anon().post('/api/auth/refresh', { refreshToken });

  it('rotates: a new pair, and the used token is dead', async () => {
    await newTeacher('rotate@qiraa.test');
    const first = (await login('rotate@qiraa.test')).json();
    const second = await refresh(first.refreshToken);
    expect(second.statusCode).toBe(200);
    expect(second.json().refreshToken).not.toBe(first.refreshToken);
    expect((await client(t.app, second.json().accessToken).get('/api/auth/me')).statusCode).toBe(200);
  });

  it('revokes the whole family when a rotated token is reused, so the newest dies too', async () => {
    await newTeacher('reuse@qiraa.test');
    const first = (await login('reuse@qiraa.test')).json();
    const second = (await refresh(first.refreshToken)).json();
    const reuse = await refresh(first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('SESSION_REVOKED');
    const newest = await refresh(second.refreshToken);
    expect(newest.statusCode).toBe(401);
    expect(newest.json().code).toBe('SESSION_REVOKED');
  });

  it('lets exactly one of many parallel refreshes of one token succeed', async () => {
    await newTeacher('parallel@qiraa.test');
    const { refreshToken } = (await login('parallel@qiraa.test')).json();
    const results = await Promise.all(Array.from({ length: 8 }, () => refresh(refreshToken)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(7);
  });

  it('stores only a hash of at least 128 bits of randomness', async () => {
    await newTeacher('hashed@qiraa.test');
    const { refreshToken } = (await login('hashed@qiraa.test')).json();
    expect(Buffer.from(refreshToken, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await t.db
      .sql`select 1 from refresh_tokens where encode(token_hash, 'escape') like ${`%${refreshToken}%`}`;
    expect(rows).toHaveLength(0);
  });

  it('ends with the family’s absolute lifetime', async () => {
    await newTeacher('lifetime@qiraa.test');
    const { refreshToken } = (await login('lifetime@qiraa.test')).json();
    await t.db.sql`
      update refresh_families set expires_at = now() - interval '1 second'
      where user_id = (select id from users where email = 'lifetime@qiraa.test')`;
    const res = await refresh(refreshToken);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('SESSION_REVOKED');
  });

  it('logout revokes the session', async () => {
    await newTeacher('logout@qiraa.test');
    const { refreshToken } = (await login('logout@qiraa.test')).json();
    expect((await anon().post('/api/auth/logout', { refreshToken })).statusCode).toBe(204);
    expect((await refresh(refreshToken)).json().code).toBe('SESSION_REVOKED');
  });

  it('answers an unknown refresh token with 401 TOKEN_INVALID', async () => {
    expect((await refresh('A'.repeat(43))).json().code).toBe('TOKEN_INVALID');
  });
});
