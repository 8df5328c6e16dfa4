import { assertPasskey, createPasskey, type SoftPasskey } from '@qiraa/app/testing';
import { authenticated, everyone, type MatrixContext, type MatrixRow, MISSING, type Target } from '../matrixTypes';

/** own: the student of the teacher's class (the parent's child); sameOrg: a fresh student of the other school. */
async function studentFor(ctx: MatrixContext, target: Target): Promise<number> {
  if (target === 'own') return ctx.world.a.studentId;
  if (target === 'otherOrg') return ctx.world.b.studentId;
  if (target === 'missing') return MISSING.user;
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: `/api/classes/${ctx.world.a.otherClassId}/students`,
    payload: { fullNameAr: 'طالب' },
    headers: { authorization: `Bearer ${ctx.world.superToken}` },
  });
  return res.json().studentId;
}

async function freshHandoffCode(ctx: MatrixContext): Promise<string> {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/auth/handoff-codes',
    payload: { studentId: ctx.world.a.studentId },
    headers: { authorization: `Bearer ${ctx.world.a.teacherToken}` },
  });
  return res.json().code;
}

const studentTargets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];
const refused = { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 };

/** Passwordless sign-in (docs/identity-passwordless.md): handoff codes, passkeys, school sign-in. */
export const identityPasswordlessRows: MatrixRow[] = [
  {
    route: 'POST /api/auth/handoff-codes',
    // none: the caller's own session (no studentId); the other targets name a student.
    targets: ['none', ...studentTargets],
    request: async (ctx, target) => ({
      url: '/api/auth/handoff-codes',
      body: target === 'none' ? {} : { studentId: await studentFor(ctx, target) },
    }),
    // The class teacher and the organization admin hand a student over; the student their own session.
    // A super-scope administrator impersonates no child (403 wherever the student is, 404 when none).
    expect: authenticated(
      { none: 201, ...refused },
      {
        super: { none: 201, own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
        admin: { none: 201, own: 201, sameOrg: 201, otherOrg: 404, missing: 404 },
        teacher: { none: 201, own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
        student: { none: 201, own: 201, sameOrg: 403, otherOrg: 404, missing: 404 },
      },
    ),
  },
  {
    route: 'POST /api/auth/handoff-codes/redeem',
    targets: ['none'],
    request: async (ctx) => ({ url: '/api/auth/handoff-codes/redeem', body: { code: await freshHandoffCode(ctx) } }),
    expect: everyone(200),
  },
];

// The test app's relying party: the development defaults (rp id localhost, the API's own origin).
const ORIGIN = 'http://localhost:8787';

async function post(ctx: MatrixContext, url: string, token: string | null, payload: unknown) {
  return ctx.t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** A passkey registered through the routes for the holder of `token`. */
async function registeredPasskey(ctx: MatrixContext, token: string): Promise<SoftPasskey> {
  const options = (await post(ctx, '/api/auth/webauthn/registration/options', token, {})).json();
  const { passkey, response } = createPasskey(options, ORIGIN);
  const res = await post(ctx, '/api/auth/webauthn/registration/verify', token, { response });
  if (res.statusCode !== 201) throw new Error(`passkey registration: ${res.statusCode} ${res.body}`);
  return passkey;
}

const managerKeys = new WeakMap<object, SoftPasskey>();

/** A fresh assertion of the manager's passkey (registered once per test app) on a fresh challenge. */
async function freshAssertion(ctx: MatrixContext) {
  let passkey = managerKeys.get(ctx.t);
  if (!passkey) {
    passkey = await registeredPasskey(ctx, ctx.world.a.managerToken);
    managerKeys.set(ctx.t, passkey);
  }
  const options = (await post(ctx, '/api/auth/webauthn/authentication/options', null, {})).json();
  return assertPasskey(passkey, options, ORIGIN);
}

const onlyTheTeacher = (own: number) =>
  authenticated({ own: 404, otherOrg: 404, missing: 404 }, { teacher: { own, otherOrg: 404, missing: 404 } });

/** Passkeys: the caller's own only; another user's passkey is 404 whoever asks (it is never shown to others). */
export const passkeyRows: MatrixRow[] = [
  {
    route: 'POST /api/auth/webauthn/registration/options',
    targets: ['none'],
    request: () => ({ url: '/api/auth/webauthn/registration/options', body: {} }),
    expect: authenticated(200, { student: 403 }),
  },
  {
    route: 'POST /api/auth/webauthn/registration/verify',
    variant: "the teacher's challenge",
    targets: ['own'],
    request: async (ctx) => {
      const options = (await post(ctx, '/api/auth/webauthn/registration/options', ctx.world.a.teacherToken, {})).json();
      return {
        url: '/api/auth/webauthn/registration/verify',
        body: { response: createPasskey(options, ORIGIN).response },
      };
    },
    // A challenge belongs to the user who asked for it: anyone else presenting it is 401 STATE_EXPIRED.
    expect: authenticated(401, { teacher: 201, student: 403 }),
  },
  {
    route: 'POST /api/auth/webauthn/authentication/options',
    targets: ['none'],
    request: () => ({ url: '/api/auth/webauthn/authentication/options', body: {} }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/auth/webauthn/authentication/verify',
    targets: ['none'],
    request: async (ctx) => ({
      url: '/api/auth/webauthn/authentication/verify',
      body: { response: await freshAssertion(ctx) },
    }),
    expect: everyone(200),
  },
  {
    route: 'GET /api/auth/webauthn/credentials',
    targets: ['none'],
    request: () => ({ url: '/api/auth/webauthn/credentials' }),
    expect: authenticated(200),
  },
  {
    route: 'DELETE /api/auth/webauthn/credentials/{credentialId}',
    targets: ['own', 'otherOrg', 'missing'],
    request: async (ctx, target) => {
      const id =
        target === 'missing'
          ? 'bWlzc2luZy1wYXNza2V5'
          : (
              await registeredPasskey(ctx, target === 'own' ? ctx.world.a.teacherToken : ctx.world.b.adminToken)
            ).credentialId.toString('base64url');
      return { url: `/api/auth/webauthn/credentials/${id}` };
    },
    expect: onlyTheTeacher(204),
  },
];

/**
 * School sign-in. The matrix's app configures no identity provider, so every name is unknown: 404 for
 * everyone, token or not (the flows themselves: packages/identity/src/routes/oidc.int.spec.ts, against a
 * real provider).
 */
export const oidcRows: MatrixRow[] = [
  {
    route: 'GET /api/auth/oidc/{provider}/start',
    targets: ['missing'],
    request: () => ({ url: '/api/auth/oidc/school/start' }),
    expect: everyone(404),
  },
  {
    route: 'GET /api/auth/oidc/{provider}/callback',
    targets: ['missing'],
    request: () => ({ url: '/api/auth/oidc/school/callback?state=matrix-state&code=matrix-code' }),
    expect: everyone(404),
  },
];
