import { client, PASSWORD, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { MATRIX } from './matrix';
import {
  type MatrixContext,
  type MatrixRequest,
  type MatrixRow,
  ORGANIZATION_A,
  TARGET_BLIND_REFUSALS,
  type Target,
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

  // Permission before validation (issue 24): a caller the row refuses (403) on its in-organization target
  // still gets 403 when the body is invalid, never 400/422 (that would reveal the schema). One request per
  // refused caller and route with a body.
  it('refuses a caller without the permission with 403 before validating the body, on every route with a body', async () => {
    const withBody = new Set(
      t.app.registeredRoutes.filter((r) => r.hasBody).map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`),
    );
    const inOrg = (row: MatrixRow) => (['own', 'none'] as const).filter((x) => row.targets.includes(x));
    const refusedIn = (row: MatrixRow, who: Who) => {
      const e = row.expect[who];
      return inOrg(row).every((target) => (typeof e === 'number' ? e : e[target]) === 403);
    };
    // A caller some body lets in (POST /api/users STUDENT branch, handing over one's own session) is not refused.
    const refusedEverywhere = (route: string, who: Who) =>
      MATRIX.filter((r) => r.route === route).every((r) => inOrg(r).length > 0 && refusedIn(r, who));
    const faults: string[] = [];
    let probes = 0;
    const probed = new Set<string>();
    for (const row of MATRIX) {
      // Public routes have no permission to lack.
      if (!withBody.has(row.route) || row.expect.anonymous !== 401) continue;
      const [target] = inOrg(row);
      if (!target) continue;
      const refused = WHO.filter((who) => refusedEverywhere(row.route, who));
      if (refused.length === 0) continue;
      probed.add(row.route);
      const { url, headers } = await row.request(ctx(), target);
      const [method] = row.route.split(' ');
      probes += refused.length;
      const answers = await Promise.all(
        refused.map((who) =>
          t.app.inject({
            method: method as 'POST',
            url,
            headers: { ...headers, authorization: `Bearer ${tokens[who]}` },
            payload: { matrixInvalidField: [] },
          }),
        ),
      );
      answers.forEach((res, i) => {
        if (res.statusCode !== 403 || res.json().code !== 'PERMISSION_DENIED') {
          faults.push(`${row.route} ${refused[i]}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      });
    }
    expect(faults).toEqual([]);
    expect(probes).toBeGreaterThan(50);
    // Coverage: every route with a body and a caller of organization A it refuses whatever the body (403 on
    // every in-organization target of every row: no permission) was probed. A caller refused on some targets
    // only (POST /api/auth/handoff-codes: one's own session 201, another teacher's student 403) is refused by
    // what the body names, which cannot be known before the body is read.
    const lacksPermission = (route: string, who: Who) => {
      const rows = MATRIX.filter((r) => r.route === route);
      const answers = rows.flatMap((r) =>
        (['own', 'sameOrg', 'none'] as const)
          .filter((x) => r.targets.includes(x))
          .map((x) => {
            const e = r.expect[who];
            return typeof e === 'number' ? e : e[x];
          }),
      );
      return answers.length > 0 && answers.every((status) => status === 403);
    };
    const unprobed = MATRIX.filter(
      (row) =>
        withBody.has(row.route) &&
        row.expect.anonymous === 401 &&
        !probed.has(row.route) &&
        ORGANIZATION_A.some((who) => lacksPermission(row.route, who)),
    ).map((row) => row.route);
    expect([...new Set(unprobed)].sort(), 'routes with a body and a caller without permission, never probed').toEqual(
      [],
    );
  }, 120_000);

  for (const row of MATRIX) {
    it(`${row.route}${row.variant ? ` (${row.variant})` : ''}`, async () => {
      const [method] = row.route.split(' ');
      // A read changes nothing, and neither may a refusal: their probes share one request (and the resource it
      // made) per target; a refusal that wrongly went through still fails its own probe. Each write a caller is
      // let in gets a fresh resource, so one caller's change never decides another's answer. Making a resource
      // per probe was most of this file's CPU (nine callers × four targets for each row of a session route).
      const shared = new Map<Target, Promise<MatrixRequest>>();
      const requestFor = (target: Target, status: number): Promise<MatrixRequest> => {
        if (method !== 'GET' && status < 400) return Promise.resolve(row.request(ctx(), target));
        let request = shared.get(target);
        if (!request) {
          request = Promise.resolve(row.request(ctx(), target));
          shared.set(target, request);
        }
        return request;
      };
      const probe = async (who: Who, target: Target): Promise<string | null> => {
        const expected = row.expect[who];
        const status = typeof expected === 'number' ? expected : expected[target];
        if (status === undefined) throw new Error(`${row.route}: no expectation for ${who} on ${target}`);
        const { url, body, headers } = await requestFor(target, status);
        const token = tokens[who];
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(body === undefined ? {} : { payload: body as object }),
        });
        if (res.statusCode >= 400) expect(res.json(), `${who} → ${target}`).toHaveProperty('code');
        return res.statusCode === status
          ? null
          : `${who} → ${target}: expected ${status}, got ${res.statusCode} ${res.body.slice(0, 160)}`;
      };
      const pairs = WHO.flatMap((who) => row.targets.map((target) => [who, target] as const));
      // A read changes nothing, so its probes run together (this file is one of the slowest of the suite);
      // a write's run one after another, as a client would send them.
      const outcomes: (string | null)[] = [];
      if (method === 'GET') outcomes.push(...(await Promise.all(pairs.map(([who, target]) => probe(who, target)))));
      else for (const [who, target] of pairs) outcomes.push(await probe(who, target));
      expect(outcomes.filter((o): o is string => o !== null)).toEqual([]);
    });
  }
});
