import { generateKeyPairSync } from 'node:crypto';
import { assertPasskey as assert, client, createPasskey, type SoftPasskey, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';

const ORIGIN = 'https://app.qiraa.test';
// The relying party comes from the runtime configuration, as in production.
const { t, w } = useTestWorld({
  env: { WEBAUTHN_RP_ID: 'qiraa.test', WEBAUTHN_ORIGINS: `${ORIGIN},https://qiraa.test` },
});
const anon = () => client(t.app);
const as = (token: string) => client(t.app, token);

async function registrationOptions(token: string) {
  const res = await as(token).post('/api/auth/webauthn/registration/options', {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function register(token: string, origin = ORIGIN) {
  const options = await registrationOptions(token);
  const { passkey, response } = createPasskey(options, origin);
  const res = await as(token).post('/api/auth/webauthn/registration/verify', { response });
  return { passkey, res };
}
async function signInOptions() {
  const res = await anon().post('/api/auth/webauthn/authentication/options', {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const signIn = (response: unknown) => anon().post('/api/auth/webauthn/authentication/verify', { response });

let teacherKey: SoftPasskey;

beforeAll(async () => {
  const { passkey, res } = await register(w.a.teacherToken);
  expect(res.statusCode, res.body).toBe(201);
  teacherKey = passkey;
});

describe('passkey registration', () => {
  it('options name the configured relying party, a single-use challenge and a discoverable, verified key', async () => {
    const options = await registrationOptions(w.a.parentToken);
    expect(options).toMatchObject({
      rp: { id: 'qiraa.test', name: 'qiraa' },
      timeout: 300_000,
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    expect(options.pubKeyCredParams).toContainEqual({ alg: -7, type: 'public-key' });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await t.db.sql`select count(*)::int as n from auth_webauthn_challenges
                                    where challenge_hash = sha256(${options.challenge}::bytea)`;
    expect(stored!.n).toBe(1); // kept hashed: the challenge itself is nowhere in the table
  });

  it('stores the passkey, lists it for its owner only, and excludes it from the next options', async () => {
    const list = await as(w.a.teacherToken).get('/api/auth/webauthn/credentials');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({ id: teacherKey.credentialId.toString('base64url'), transports: ['internal'] }),
    ]);
    expect((await as(w.a.otherTeacherToken).get('/api/auth/webauthn/credentials')).json()).toEqual([]);
    const next = await registrationOptions(w.a.teacherToken);
    expect(next.excludeCredentials).toEqual([
      expect.objectContaining({ id: teacherKey.credentialId.toString('base64url') }),
    ]);
  });

  it('refuses an attestation made for another origin (422) and burns its challenge', async () => {
    const options = await registrationOptions(w.a.managerToken);
    const { response } = createPasskey(options, 'https://evil.example');
    const res = await as(w.a.managerToken).post('/api/auth/webauthn/registration/verify', { response });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'response', issue: expect.stringMatching(/origin/i) }],
    });
    const again = await as(w.a.managerToken).post('/api/auth/webauthn/registration/verify', {
      response: createPasskey(options, ORIGIN).response,
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('STATE_EXPIRED');
  });

  it("answers 401 STATE_EXPIRED for another user's challenge and for an expired one", async () => {
    const options = await registrationOptions(w.a.principalToken);
    const stolen = await as(w.a.adminToken).post('/api/auth/webauthn/registration/verify', {
      response: createPasskey(options, ORIGIN).response,
    });
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json().code).toBe('STATE_EXPIRED');

    const late = await registrationOptions(w.a.adminToken);
    await t.db.sql`update auth_webauthn_challenges set expires_at = now() - interval '1 second'
                   where challenge_hash = sha256(${late.challenge}::bytea)`;
    const res = await as(w.a.adminToken).post('/api/auth/webauthn/registration/verify', {
      response: createPasskey(late, ORIGIN).response,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('STATE_EXPIRED');
  });

  it('is for adults: a student token gets 403', async () => {
    const res = await as(w.a.studentToken).post('/api/auth/webauthn/registration/options', {});
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PERMISSION_DENIED');
  });
});

describe('passkey sign-in', () => {
  it('signs the owner in with the same token pair as password login and records the use', async () => {
    const res = await signIn(assert(teacherKey, await signInOptions(), ORIGIN));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 900, refreshToken: expect.any(String) });
    const me = await as(res.json().accessToken).get('/api/auth/me');
    expect(me.json()).toMatchObject({ id: w.a.teacherId, primaryPersona: 'TEACHER' });
    const refreshed = await anon().post('/api/auth/refresh', { refreshToken: res.json().refreshToken });
    expect(refreshed.statusCode).toBe(200);
    const [row] = await t.db.sql`select sign_count::int as n, last_used_at from auth_webauthn_credentials
                                 where id = ${teacherKey.credentialId.toString('base64url')}`;
    expect(row).toMatchObject({ n: teacherKey.counter, last_used_at: expect.any(Date) });
  });

  it('refuses a replayed assertion: its challenge is consumed (401 STATE_EXPIRED)', async () => {
    const assertion = assert(teacherKey, await signInOptions(), ORIGIN);
    expect((await signIn(assertion)).statusCode).toBe(200);
    const replay = await signIn(assertion);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('STATE_EXPIRED');
  });

  it('refuses a counter that did not go up (a cloned authenticator): 401 INVALID_CREDENTIALS', async () => {
    const stale = teacherKey.counter;
    const res = await signIn(assert(teacherKey, await signInOptions(), ORIGIN, { counter: stale }));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_CREDENTIALS');
    teacherKey.counter = stale; // the server kept the old counter; the real key goes on from there
    expect((await signIn(assert(teacherKey, await signInOptions(), ORIGIN))).statusCode).toBe(200);
  });

  it('refuses an assertion for another origin and one signed by another key', async () => {
    const wrongOrigin = await signIn(assert(teacherKey, await signInOptions(), 'https://evil.example'));
    expect(wrongOrigin.statusCode).toBe(401);
    expect(wrongOrigin.json().code).toBe('INVALID_CREDENTIALS');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = await signIn(assert(teacherKey, await signInOptions(), ORIGIN, { signWith: privateKey }));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('of parallel sign-ins on one challenge exactly one wins', async () => {
    const options = await signInOptions();
    const assertion = assert(teacherKey, options, ORIGIN);
    const results = await Promise.all(Array.from({ length: 8 }, () => signIn(assertion)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(7);
  });

  it('an unknown passkey and an unissued challenge are 401; a malformed response 422', async () => {
    const { passkey } = createPasskey(await registrationOptions(w.a.parentToken), ORIGIN); // never verified
    const unknown = await signIn(assert(passkey, await signInOptions(), ORIGIN));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('INVALID_CREDENTIALS');
    const unissued = await signIn(assert(teacherKey, { challenge: 'bm90LWlzc3VlZA' }, ORIGIN));
    expect(unissued.json().code).toBe('STATE_EXPIRED');
    const malformed = await signIn({ id: 'x' });
    expect(malformed.statusCode).toBe(422);
  });
});

describe('passkey deletion', () => {
  it("deletes one's own passkey (204), after which it signs no one in; anyone else's is 404", async () => {
    const { passkey, res } = await register(w.a.adminToken);
    expect(res.statusCode, res.body).toBe(201);
    const id = passkey.credentialId.toString('base64url');
    const foreign = await as(w.a.teacherToken).delete(`/api/auth/webauthn/credentials/${id}`);
    expect(foreign.statusCode).toBe(404);
    expect((await as(w.b.adminToken).delete(`/api/auth/webauthn/credentials/${id}`)).statusCode).toBe(404);
    expect((await as(w.a.adminToken).delete(`/api/auth/webauthn/credentials/${id}`)).statusCode).toBe(204);
    const after = await signIn(assert(passkey, await signInOptions(), ORIGIN));
    expect(after.statusCode).toBe(401);
    expect((await as(w.a.adminToken).get('/api/auth/webauthn/credentials')).json()).toEqual([]);
  });
});
