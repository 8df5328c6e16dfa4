import { createServer } from 'node:net';
import { client, useTestWorld } from '@qiraa/app/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdentityProvider, type TestIdentityProvider } from '../testing/oidcTestProvider';

const REDIRECT = 'https://app.qiraa.test/sso/school';
const env: Record<string, string> = {};
let idp: TestIdentityProvider;

/** A loopback port nothing listens on: the provider that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Registered before useTestWorld's hooks: the app is built with the provider's address in its configuration.
beforeAll(async () => {
  idp = await startTestIdentityProvider(
    {
      'sub-teacher': { email: 'Teacher@Amal-JO.test', email_verified: true },
      'sub-unverified': { email: 'admin@amal-jo.test', email_verified: false },
      'sub-stranger': { email: 'nobody@amal-jo.test', email_verified: true },
    },
    REDIRECT,
  );
  Object.assign(env, {
    OIDC_PROVIDERS: 'school,down',
    OIDC_SCHOOL_ISSUER: idp.issuer,
    OIDC_SCHOOL_CLIENT_ID: idp.clientId,
    OIDC_SCHOOL_CLIENT_SECRET: idp.clientSecret,
    OIDC_SCHOOL_REDIRECT_URI: REDIRECT,
    OIDC_DOWN_ISSUER: `http://127.0.0.1:${await closedPort()}`,
    OIDC_DOWN_CLIENT_ID: 'qiraa',
    OIDC_DOWN_REDIRECT_URI: REDIRECT,
  });
});
const { t, w } = useTestWorld({ env });
afterAll(() => idp?.close());

const anon = () => client(t.app);

async function start(provider = 'school') {
  const res = await anon().get(`/api/auth/oidc/${provider}/start`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { authorizationUrl: string; expiresAt: string };
}
/** Start, sign in at the provider as `subject`, and land on the redirect URI with its query. */
async function signInAt(subject: string) {
  const { authorizationUrl } = await start();
  idp.loginAs(subject);
  return idp.browse(authorizationUrl, REDIRECT);
}
const callback = (landed: URL, provider = 'school') =>
  anon().get(`/api/auth/oidc/${provider}/callback${landed.search}`);

describe('school sign-in (OpenID Connect)', () => {
  it('starts with PKCE (S256), a state and a nonce at the configured provider', async () => {
    const { authorizationUrl, expiresAt } = await start();
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: idp.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid email',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.any(String),
      nonce: expect.any(String),
    });
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(500_000);
  });

  it('maps the verified email to the existing adult (any case) and issues the token pair; the state is single-use', async () => {
    const landed = await signInAt('sub-teacher');
    expect(landed.searchParams.get('code')).toBeTruthy();
    const res = await callback(landed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    const me = await client(t.app, res.json().accessToken).get('/api/auth/me');
    expect(me.json()).toMatchObject({ id: w.a.teacherId, primaryPersona: 'TEACHER' });

    const replay = await callback(landed);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('STATE_EXPIRED');
  });

  it('an expired state, an unknown one and another provider’s are 401 STATE_EXPIRED', async () => {
    const landed = await signInAt('sub-teacher');
    await t.db.sql`update auth_oidc_states set expires_at = now() - interval '1 second' where consumed_at is null`;
    const expired = await callback(landed);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('STATE_EXPIRED');

    const unknown = await anon().get('/api/auth/oidc/school/callback?state=never-issued&code=x');
    expect(unknown.json().code).toBe('STATE_EXPIRED');

    const elsewhere = await callback(await signInAt('sub-teacher'), 'down');
    expect(elsewhere.statusCode).toBe(401);
    expect(elsewhere.json().code).toBe('STATE_EXPIRED');
  });

  it('creates no account: an unverified email and an email of no adult are 401 INVALID_CREDENTIALS', async () => {
    const users = async () => (await t.db.sql`select count(*)::int as n from users`)[0]!.n;
    const before = await users();
    const why = { 'sub-unverified': /did not vouch for an email/, 'sub-stranger': /no enabled adult account/ };
    for (const [subject, message] of Object.entries(why)) {
      const res = await callback(await signInAt(subject));
      expect(res.statusCode, subject).toBe(401);
      expect(res.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: expect.stringMatching(message) });
    }
    expect(await users()).toBe(before);
  });

  it('PKCE is enforced end to end: a code redeemed with another verifier is refused', async () => {
    const landed = await signInAt('sub-teacher');
    await t.db.sql`update auth_oidc_states set code_verifier = ${'x'.repeat(43)} where consumed_at is null`;
    const res = await callback(landed);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: expect.stringMatching(/did not confirm/),
    });
  });

  it('an unconfigured provider is 404; a provider that cannot be reached is 503 IDENTITY_PROVIDER_UNAVAILABLE', async () => {
    const none = await anon().get('/api/auth/oidc/nowhere/start');
    expect(none.statusCode).toBe(404);
    const down = await anon().get('/api/auth/oidc/down/start');
    expect(down.statusCode).toBe(503);
    expect(down.json().code).toBe('IDENTITY_PROVIDER_UNAVAILABLE');
  });

  it('a provider that goes down between start and callback: 503, and nothing signed in', async () => {
    const landed = await signInAt('sub-teacher');
    await idp.close();
    const res = await callback(landed);
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('IDENTITY_PROVIDER_UNAVAILABLE');
  });
});
