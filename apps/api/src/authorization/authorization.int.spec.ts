import { beforeAll, describe, expect, it } from 'vitest';
import { client, PASSWORD, useTestWorld } from '../testing';
import { MATRIX } from './matrix';
import { type MatrixContext, WHO, type Who } from './matrixTypes';

const { t, w: world } = useTestWorld();
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

  for (const row of MATRIX) {
    it(`${row.route}${row.variant ? ` (${row.variant})` : ''}`, async () => {
      const failures: string[] = [];
      for (const who of WHO) {
        for (const target of row.targets) {
          const expected = row.expect[who];
          const status = typeof expected === 'number' ? expected : expected[target];
          if (status === undefined) throw new Error(`${row.route}: no expectation for ${who} on ${target}`);
          const { url, body } = await row.request(ctx(), target);
          const [method] = row.route.split(' ');
          const token = tokens[who];
          const res = await t.app.inject({
            method: method as 'GET',
            url,
            headers: token ? { authorization: `Bearer ${token}` } : {},
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
