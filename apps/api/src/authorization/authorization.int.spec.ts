import { beforeAll, describe, expect, it } from 'vitest';
import { client, PASSWORD, useTestWorld } from '../testing';
import { MATRIX } from './matrix';
import {
  type MatrixContext,
  type MatrixRow,
  ORGANIZATION_A,
  TARGET_BLIND_REFUSALS,
  WHO,
  type Who,
} from './matrixTypes';

const { t, w: world } = useTestWorld();
/** Input fields that name a tenant resource (organization, school, class, user, content) by id. */
const TENANT_FIELD = /^(id|\w*Id)$/;
const tokens = {} as Record<Who, string | undefined>;
let counter = 0;

beforeAll(async () => {
  const disabledUser = await client(t.app, world.superToken).post('/api/users', {
    primaryPersona: 'TEACHER',
    email: 'disabled@amal-jo.test',
    password: PASSWORD,
    fullNameAr: 'معطل',
    organizationId: world.a.id,
  });
  const login = await client(t.app).post('/api/auth/login', { email: 'disabled@amal-jo.test', password: PASSWORD });
  await t.db.sql`update users set disabled_at = now() where id = ${disabledUser.json().id}`;
  Object.assign(tokens, {
    anonymous: undefined,
    disabled: login.json().accessToken,
    super: world.superToken,
    admin: world.a.adminToken,
    teacher: world.a.teacherToken,
    principal: world.a.principalToken,
    manager: world.a.managerToken,
    parent: world.a.parentToken,
    student: world.a.studentToken,
  });
}, 120_000);

const ctx = (): MatrixContext => ({ t, world, unique: () => `${process.pid}x${counter++}` });

describe('authorization matrix', () => {
  it('has a row for every registered /api route', () => {
    const registered = new Set(
      t.app.registeredRoutes
        .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD')
        .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z]\w*)/g, '{$1}')}`),
    );
    const covered = new Set(MATRIX.map((row) => row.route));
    expect([...registered].filter((r) => !covered.has(r)).sort(), 'routes without a matrix row').toEqual([]);
    expect([...covered].filter((r) => !registered.has(r)).sort(), 'matrix rows of no route').toEqual([]);
  });

  // Tenant before permission, for every route that names a resource: a future row without the otherOrg
  // target, or expecting anything but 404 there from a caller of organization A, fails here.
  it('answers 404 for another organization or a missing target to every caller of organization A', () => {
    const registered = new Map(
      t.app.registeredRoutes.map((r) => [`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`, r]),
    );
    const blind = (route: string, who: Who) => TARGET_BLIND_REFUSALS.find((e) => e.route === route && e.who === who);
    const expected = (row: MatrixRow, who: Who, target: 'otherOrg' | 'missing') => {
      const e = row.expect[who];
      return typeof e === 'number' ? e : e[target];
    };
    const faults: string[] = [];
    for (const row of MATRIX) {
      const name = `${row.route}${row.variant ? ` (${row.variant})` : ''}`;
      if (row.expect.anonymous !== 401) continue; // a public route has no tenant context
      const inputs = registered.get(row.route)?.inputs ?? [];
      const named = inputs.filter((field) => TENANT_FIELD.test(field) && !row.filters?.includes(field));
      if ((row.route.includes('{') || named.length > 0) && !row.targets.includes('otherOrg')) {
        faults.push(
          `${name}: names a resource (${row.route.includes('{') ? 'path' : named.join(', ')}) but has no otherOrg target`,
        );
      }
      for (const target of ['otherOrg', 'missing'] as const) {
        if (!row.targets.includes(target)) continue;
        for (const who of [...ORGANIZATION_A, ...(target === 'missing' ? (['super'] as const) : [])]) {
          const want = blind(row.route, who)?.status ?? 404;
          if (expected(row, who, target) !== want) {
            faults.push(`${name}: ${who} → ${target} expects ${expected(row, who, target)}, the tenant rule ${want}`);
          }
        }
      }
    }
    for (const e of TARGET_BLIND_REFUSALS) {
      const row = MATRIX.find((r) => r.route === e.route && r.targets.includes('otherOrg'));
      if (!row) faults.push(`${e.route}: a target-blind refusal of no row with an otherOrg target`);
    }
    expect(faults).toEqual([]);
  });

  for (const row of MATRIX) {
    it(`${row.route}${row.variant ? ` (${row.variant})` : ''}`, async () => {
      const failures: string[] = [];
      for (const who of WHO) {
        for (const target of row.targets) {
          const expected = row.expect[who];
          const status = typeof expected === 'number' ? expected : expected[target];
          if (status === undefined) throw new Error(`${row.route}: no expectation for ${who} on ${target}`);
          const { url, body, headers } = await row.request(ctx(), target);
          const [method] = row.route.split(' ');
          const token = tokens[who];
          const res = await t.app.inject({
            method: method as 'GET',
            url,
            headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
            ...(body === undefined ? {} : { payload: body as object }),
          });
          if (res.statusCode !== status)
            failures.push(`${who} → ${target}: expected ${status}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
          if (res.statusCode >= 400) expect(res.json(), `${who} → ${target}`).toHaveProperty('code');
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
