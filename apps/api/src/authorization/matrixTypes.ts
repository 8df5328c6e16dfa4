import type { TestApp, World } from '../testing';

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
}

export interface MatrixRow {
  /** Exactly as registered: `METHOD /api/path/{param}` with fastify's `:param` written `{param}`. */
  route: string;
  /** Distinguishes several rows of one route (e.g. the STUDENT branch of POST /api/users). */
  variant?: string;
  targets: readonly Target[];
  /** Called for every (who, target), so destructive requests can make their own fresh resource. */
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

/** Same status for everyone, token or not (public routes). */
export const everyone = (status: number): Record<Who, number> =>
  Object.fromEntries(WHO.map((w) => [w, status])) as Record<Who, number>;

export const MISSING = {
  org: 'org_AAAAAAAAAAAA',
  school: 'sch_AAAAAAAAAAAA',
  class: 'cls_AAAAAAAAAAAA',
  user: 999_999,
};
