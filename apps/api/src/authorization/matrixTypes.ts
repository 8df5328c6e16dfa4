import type { TestApp, World } from '@qiraa/app/testing';

/** Who calls: no token, a disabled user's still-valid token, or a user of organization A per persona. */
export const WHO = [
  'anonymous',
  'disabled',
  'super',
  'admin',
  'teacher',
  'principal',
  'manager',
  'parent',
  'student',
] as const;
export type Who = (typeof WHO)[number];

/** The callers holding a token of organization A (every one but the super-scope administrator). */
export const ORGANIZATION_A: readonly Who[] = ['admin', 'teacher', 'principal', 'manager', 'parent', 'student'];

/**
 * What the request points at: the caller's own scope, the caller's organization but outside the caller's
 * reach (another school's class, another teacher's student), another organization, or an id that does
 * not exist. `none` for routes without a target resource.
 */
export type Target = 'own' | 'sameOrg' | 'otherOrg' | 'missing' | 'none';

export interface MatrixContext {
  t: TestApp;
  world: World;
  /** A fresh suffix for emails, slugs and names, so repeated creates do not collide. */
  unique(): string;
}

export interface MatrixRequest {
  url: string;
  body?: unknown;
  /** Extra request headers (e.g. a required `X-Idempotency-Key`). */
  headers?: Record<string, string>;
}

export interface MatrixRow {
  /** Exactly as registered: `METHOD /api/path/{param}` with fastify's `:param` written `{param}`. */
  route: string;
  /** Distinguishes several rows of one route (e.g. the STUDENT branch of POST /api/users). */
  variant?: string;
  targets: readonly Target[];
  /**
   * Id inputs that only narrow a list (another organization's id answers an empty list, like an unknown one):
   * not a target, so the row needs no otherOrg target for them.
   */
  filters?: readonly string[];
  /**
   * Called for each caller a write lets in (so it gets its own fresh resource), and once per target for the
   * probes that change nothing (reads, refusals), which share it (authorization.int.spec.ts).
   */
  request(ctx: MatrixContext, target: Target): MatrixRequest | Promise<MatrixRequest>;
  /** The expected status for each caller: one for every target, or one per target. */
  expect: Record<Who, number | Partial<Record<Target, number>>>;
}

/** Same status for every caller but the anonymous and the disabled one (401 for both). */
export const authenticated = (
  status: number | Partial<Record<Target, number>>,
  overrides: Partial<Record<Who, number | Partial<Record<Target, number>>>> = {},
) =>
  ({
    anonymous: 401,
    disabled: 401,
    super: status,
    admin: status,
    teacher: status,
    principal: status,
    manager: status,
    parent: status,
    student: status,
    ...overrides,
  }) satisfies Record<Who, number | Partial<Record<Target, number>>>;

/**
 * Tenant before permission: a caller refused in their own organization (403) still gets 404 for another
 * organization's target or a missing one.
 */
export const REFUSED = { own: 403, sameOrg: 403, otherOrg: 404, missing: 404 } as const;

/**
 * The only callers of organization A who get something else than 404 on another organization's or a
 * missing target: the spec's explicit persona gates, answered whatever the target (so they reveal nothing
 * about it). docs/identity.md, "Tenant before permission".
 */
export const TARGET_BLIND_REFUSALS: readonly { route: string; who: Who; status: number; spec: string }[] = [
  ...['class/{classId}', 'teacher/{teacherUserId}', 'school/{schoolId}'].map((board) => ({
    route: `GET /api/leaderboards/${board}`,
    who: 'student' as const,
    status: 403,
    spec: 'Authentication 11: student tokens receive 403 on every leaderboard route',
  })),
];

/** Same status for everyone, token or not (public routes). */
export const everyone = (status: number): Record<Who, number> =>
  Object.fromEntries(WHO.map((w) => [w, status])) as Record<Who, number>;

export const MISSING = {
  org: 'org_AAAAAAAAAAAA',
  school: 'sch_AAAAAAAAAAAA',
  class: 'cls_AAAAAAAAAAAA',
  user: 999_999,
};
