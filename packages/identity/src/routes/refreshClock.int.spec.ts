import { buildApp } from '@qiraa/app';
import { client, TEST_JWT_SECRET } from '@qiraa/app/testing';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { loadConfig, openRuntime } from '@qiraa/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILY_LIFETIME_DAYS } from '../commands/refreshTokens';

/**
 * A refresh token's validity is a domain outcome, so it follows the injected clock (issue 22): the same data,
 * served again with QIRAA_CLOCK_SHIFT_DAYS, ages the token's family by the shift. The database's own `now()`
 * does not move, so each case below would answer the other way had the expiry stayed on it.
 */
const DAY_MS = 86_400_000;
const PASSWORD = 'correct horse battery';
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

/** The service as `npm start` composes it, on the spec's database, with extra settings. */
async function service(env: NodeJS.ProcessEnv = {}) {
  const config = loadConfig({
    DATABASE_URL: db.url,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    ...env,
  });
  const runtime = await openRuntime(config, { role: 'api' });
  const app = await buildApp(runtime, { logLevel: 'silent', trustProxy: false });
  await app.ready();
  return {
    app,
    runtime,
    refresh: (refreshToken: string) => client(app).post('/api/auth/refresh', { refreshToken }),
    login: () => client(app).post('/api/auth/login', { email: 'root@qiraa.test', password: PASSWORD }),
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

const shifted = (days: number) => service({ QIRAA_CLOCK_SHIFT_DAYS: String(days) });

describe('refresh-token expiry by the injected clock (QIRAA_CLOCK_SHIFT_DAYS)', () => {
  let issuedToday: string;

  it('a token issued today is refreshed today and by a clock moved just inside the family lifetime', async () => {
    const today = await service();
    try {
      const reg = await client(today.app).post('/api/auth/register', {
        email: 'root@qiraa.test',
        password: PASSWORD,
        fullNameAr: 'المشرف',
        primaryPersona: 'ADMIN',
      });
      expect(reg.statusCode, reg.body).toBe(201);
      const res = await today.refresh(reg.json().tokens.refreshToken);
      expect(res.statusCode, res.body).toBe(200);
      issuedToday = res.json().refreshToken;
    } finally {
      await today.close();
    }
    const later = await shifted(FAMILY_LIFETIME_DAYS - 1);
    try {
      const res = await later.refresh(issuedToday);
      expect(res.statusCode, res.body).toBe(200);
      issuedToday = res.json().refreshToken;
    } finally {
      await later.close();
    }
  }, 120_000);

  it('the same family is refused by a clock moved past its lifetime', async () => {
    const later = await shifted(FAMILY_LIFETIME_DAYS + 1);
    try {
      const res = await later.refresh(issuedToday);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().code).toBe('SESSION_REVOKED');
    } finally {
      await later.close();
    }
  }, 120_000);

  it('a login under a moved clock starts a family that lives FAMILY_LIFETIME_DAYS from that clock', async () => {
    const shift = FAMILY_LIFETIME_DAYS + 1;
    const later = await shifted(shift);
    try {
      const login = await later.login();
      expect(login.statusCode, login.body).toBe(200);
      const [family] = await db.sql<{ expires_at: Date }[]>`
        select expires_at from refresh_families order by expires_at desc limit 1`;
      const expected = later.runtime.clock.now().getTime() + FAMILY_LIFETIME_DAYS * DAY_MS;
      expect(Math.abs(family!.expires_at.getTime() - expected)).toBeLessThan(60_000);
      // Valid under the clock that issued it.
      const res = await later.refresh(login.json().refreshToken);
      expect(res.statusCode, res.body).toBe(200);
      // Refused, rotated or not, once that clock has moved past the family's end.
      const much = await shifted(shift + FAMILY_LIFETIME_DAYS + 1);
      try {
        const expired = await much.refresh(res.json().refreshToken);
        expect(expired.statusCode, expired.body).toBe(401);
        expect(expired.json().code).toBe('SESSION_REVOKED');
      } finally {
        await much.close();
      }
    } finally {
      await later.close();
    }
  }, 120_000);
});
