import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';

const { t, w } = useTestWorld();
const as = (token: string) => client(t.app, token);

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
interface Org {
  id: string;
  name: string;
  slug: string;
  country: string;
  defaultLocale: string;
  disabled: boolean;
}
interface School {
  id: string;
  organizationId: string;
  name: string;
  country: string;
}

async function page<T>(token: string, url: string): Promise<Page<T>> {
  const res = await as(token).get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every page of a list, following nextCursor; also checks no page is larger than the limit. */
async function allPages<T>(token: string, url: string, limit: number): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const p: Page<T> = await page<T>(
      token,
      `${url}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(p.items.length).toBeLessThanOrEqual(limit);
    items.push(...p.items);
    cursor = p.nextCursor;
    pages += 1;
  } while (cursor !== null && pages < 100);
  return { items, pages };
}

/** Rows of equal name follow each other by id (names themselves are in the database's collation order). */
const tiesById = (rows: { name: string; id: string }[]) =>
  rows.every((r, i) => i === 0 || rows[i - 1]!.name !== r.name || rows[i - 1]!.id < r.id);
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe('GET /api/organizations', () => {
  it('lists every organization to the super-scope administrator, disabled ones flagged', async () => {
    const created = await as(w.superToken).post('/api/organizations', {
      name: 'منظمة معطلة',
      slug: 'disabled-lists',
      country: 'JO',
      defaultLocale: 'ar-JO',
    });
    const disabledId: string = created.json().id;
    await t.db.sql`update organizations set disabled_at = now() where id = ${disabledId}`;

    const { items } = await page<Org>(w.superToken, '/api/organizations');
    expect(ids(items)).toEqual(expect.arrayContaining([w.a.id, w.b.id, disabledId]));
    expect(items.find((o) => o.id === w.a.id)).toEqual({
      id: w.a.id,
      name: 'منظمة amal-jo',
      slug: 'amal-jo',
      country: 'JO',
      defaultLocale: 'ar-JO',
      disabled: false,
    });
    expect(items.find((o) => o.id === disabledId)?.disabled).toBe(true);
  });

  it('gives an organization administrator and a manager their own organization only', async () => {
    for (const token of [w.a.adminToken, w.a.managerToken]) {
      expect(ids((await page<Org>(token, '/api/organizations')).items)).toEqual([w.a.id]);
    }
    expect(ids((await page<Org>(w.b.adminToken, '/api/organizations')).items)).toEqual([w.b.id]);
  });

  it('is 403 for teachers, principals, parents and students', async () => {
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.parentToken, w.a.studentToken]) {
      const res = await as(token).get('/api/organizations');
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it('pages by name then id: every organization exactly once, in order, nextCursor null at the end', async () => {
    for (const [i, name] of ['ب', 'أ', 'ب', 'ت'].entries()) {
      await as(w.superToken).post('/api/organizations', {
        name,
        slug: `paged-${i}`,
        country: 'PS',
        defaultLocale: 'ar-PS',
      });
    }
    const whole = (await page<Org>(w.superToken, '/api/organizations?limit=200')).items;
    expect(whole.length).toBeGreaterThanOrEqual(7);
    const paged = await allPages<Org>(w.superToken, '/api/organizations', 2);
    expect(ids(paged.items)).toEqual(ids(whole));
    expect(paged.pages).toBe(Math.ceil(whole.length / 2));
    expect(new Set(ids(paged.items)).size).toBe(paged.items.length);
    expect(tiesById(whole)).toBe(true);
  });
});

describe('GET /api/schools', () => {
  let allSchools: School[];
  beforeAll(async () => {
    allSchools = (await page<School>(w.superToken, '/api/schools?limit=200')).items;
  });

  it('lists every school to the super-scope administrator, and one organization with organizationId', async () => {
    expect(ids(allSchools)).toEqual(
      expect.arrayContaining([w.a.schoolId, w.a.otherSchoolId, w.b.schoolId, w.b.otherSchoolId]),
    );
    const ofB = await page<School>(w.superToken, `/api/schools?organizationId=${w.b.id}`);
    expect(ofB.items.map((s) => s.id).sort()).toEqual([w.b.schoolId, w.b.otherSchoolId].sort());
    expect(ofB.items[0]).toEqual({
      id: expect.stringMatching(/^sch_/),
      organizationId: w.b.id,
      name: expect.any(String),
      country: 'PS',
    });
  });

  it("gives organization staff their organization's schools, a principal their school, a teacher their classes' schools", async () => {
    const ownOrg = [w.a.schoolId, w.a.otherSchoolId].sort();
    for (const token of [w.a.adminToken, w.a.managerToken]) {
      expect(ids((await page<School>(token, '/api/schools')).items).sort()).toEqual(ownOrg);
      expect(ids((await page<School>(token, `/api/schools?organizationId=${w.a.id}`)).items).sort()).toEqual(ownOrg);
    }
    expect(ids((await page<School>(w.a.principalToken, '/api/schools')).items)).toEqual([w.a.schoolId]);
    expect(ids((await page<School>(w.a.teacherToken, '/api/schools')).items)).toEqual([w.a.schoolId]);
    expect(ids((await page<School>(w.a.otherTeacherToken, '/api/schools')).items)).toEqual([w.a.otherSchoolId]);
  });

  it('answers 404 for another or a missing organization before the permission, 403 for parents and students', async () => {
    for (const token of [
      w.a.adminToken,
      w.a.managerToken,
      w.a.principalToken,
      w.a.teacherToken,
      w.a.parentToken,
      w.a.studentToken,
    ]) {
      for (const org of [w.b.id, 'org_AAAAAAAAAAAA']) {
        const res = await as(token).get(`/api/schools?organizationId=${org}`);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().code).toBe('NOT_FOUND');
      }
    }
    expect((await as(w.superToken).get('/api/schools?organizationId=org_AAAAAAAAAAAA')).statusCode).toBe(404);
    for (const token of [w.a.parentToken, w.a.studentToken]) {
      for (const url of ['/api/schools', `/api/schools?organizationId=${w.a.id}`]) {
        const res = await as(token).get(url);
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('PERMISSION_DENIED');
      }
    }
  });

  it('pages by name then id, and a school added behind the cursor does not shift the next page', async () => {
    const org = (
      await as(w.superToken).post('/api/organizations', {
        name: 'منظمة الصفحات',
        slug: 'school-pages',
        country: 'JO',
        defaultLocale: 'ar-JO',
      })
    ).json().id as string;
    for (const name of ['مدرسة ج', 'مدرسة أ', 'مدرسة ب', 'مدرسة ب', 'مدرسة د']) {
      await as(w.superToken).post('/api/schools', { organizationId: org, name, country: 'JO' });
    }
    const url = `/api/schools?organizationId=${org}`;
    const whole = (await page<School>(w.superToken, url)).items;
    expect(whole.map((s) => s.name)).toEqual(['مدرسة أ', 'مدرسة ب', 'مدرسة ب', 'مدرسة ج', 'مدرسة د']);
    expect(tiesById(whole)).toBe(true);

    const first = await page<School>(w.superToken, `${url}&limit=2`);
    expect(ids(first.items)).toEqual(ids(whole.slice(0, 2)));
    // Sorts before the cursor: a keyset page never repeats or skips because of it.
    await as(w.superToken).post('/api/schools', { organizationId: org, name: 'مدرسة ا', country: 'JO' });
    const second = await page<School>(w.superToken, `${url}&limit=2&cursor=${first.nextCursor}`);
    expect(ids(second.items)).toEqual(ids(whole.slice(2, 4)));
    const third = await page<School>(w.superToken, `${url}&limit=2&cursor=${second.nextCursor}`);
    expect(ids(third.items)).toEqual(ids(whole.slice(4)));
    expect(third.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not issue and a limit out of range with 422, never 500', async () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const orgCursor = (await page<Org>(w.superToken, '/api/organizations?limit=1')).nextCursor!;
    const badCursors = [
      'garbage',
      forged({ name: 'x' }),
      forged(['\u0000', w.a.schoolId]),
      forged(['x', "sch_' or 1=1"]),
      orgCursor, // another list's cursor: an organization id where a school id belongs
    ];
    for (const cursor of badCursors) {
      const res = await as(w.superToken).get(`/api/schools?cursor=${cursor}`);
      expect(res.statusCode, cursor).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'invalid_cursor' });
    }
    for (const url of [
      '/api/organizations?cursor=%2B%2B',
      '/api/organizations?limit=0',
      '/api/organizations?limit=201',
      '/api/schools?limit=abc',
      '/api/schools?organizationId=not-an-org',
    ]) {
      const res = await as(w.superToken).get(url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('is 401 without a token', async () => {
    for (const url of ['/api/organizations', '/api/schools']) {
      const res = await client(t.app).get(url);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('TOKEN_MISSING');
    }
  });
});
