import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Inputs an outside fuzzer found answering 500 (issue 10), sent to real routes of several contexts. Each must
 * be refused in the ApiError envelope with a 4xx, and none may write anything.
 */
const { t, w } = useTestWorld();

const NUL = '\u0000';
const LEAP_SECOND = '2026-06-30T23:59:60Z';
const YEAR_ZERO = '0000-01-01T00:00:00Z';

/**
 * Rows in every table of the database: a refused request must leave it as it was. The one write a refused call
 * may make is the super-bypass audit entry every super-scope administrator call records before validation.
 */
async function rowCounts(): Promise<Record<string, number>> {
  const sql = t.runtime.sql;
  const tables = await sql<{ name: string }[]>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] =
      name === 'es_events'
        ? await sql<{ n: string }[]>`
            select count(*)::text as n from es_events where data->>'eventType' is distinct from 'super_bypass'`
        : name === 'audit_log'
          ? await sql<{ n: string }[]>`select count(*)::text as n from audit_log where event_type <> 'super_bypass'`
          : await sql<{ n: string }[]>`select count(*)::text as n from ${sql(name)}`;
    counts[name] = Number(row?.n);
  }
  return counts;
}

let before: Record<string, number>;
beforeAll(async () => {
  await t.runtime.projector.catchUp();
  before = await rowCounts();
});

type Res = Awaited<ReturnType<ReturnType<typeof client>['get']>>;

function expectRefused(res: Res, status: number, code: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  if (field !== undefined) expect(body.details.map((d: { field: string }) => d.field)).toContain(field);
}

const superAdmin = () => client(t.app, w.superToken);
const orgAdmin = () => client(t.app, w.a.adminToken);

const masteryEvent = (extra: Record<string, unknown>) => ({
  kind: 'mastery_event',
  engineEventId: `bad-input-${Math.random().toString(36).slice(2)}`,
  studentId: w.a.studentId,
  sourceKind: 'band_progression',
  schoolDay: '2026-11-01',
  occurredAt: '2026-11-01T08:00:00Z',
  sessionId: 'bad-input-session',
  ...extra,
});

describe('a NUL character (U+0000) is refused at validation, naming the field', () => {
  it('in body strings: school, class, user and student names, mastery-event fields', async () => {
    expectRefused(
      await superAdmin().post('/api/schools', { organizationId: w.a.id, name: `مدرسة${NUL}`, country: 'JO' }),
      422,
      'VALIDATION_ERROR',
      'name',
    );
    expectRefused(
      await superAdmin().post('/api/classes', {
        schoolId: w.a.schoolId,
        name: `صف${NUL}`,
        grade: 2,
        academicYear: '2026-2027',
      }),
      422,
      'VALIDATION_ERROR',
      'name',
    );
    expectRefused(
      await superAdmin().post('/api/users', {
        primaryPersona: 'TEACHER',
        email: 'nul@qiraa.test',
        password: 'correct horse battery',
        fullNameAr: `معلم${NUL}`,
        organizationId: w.a.id,
      }),
      422,
      'VALIDATION_ERROR',
      'fullNameAr',
    );
    expectRefused(
      await orgAdmin().post(`/api/classes/${w.a.classId}/students`, { fullNameAr: `طالب${NUL}` }),
      422,
      'VALIDATION_ERROR',
      'fullNameAr',
    );
    const event = await orgAdmin().post(
      '/api/gamification/mastery-events',
      masteryEvent({ sessionId: `s${NUL}`, skillId: `k${NUL}` }),
    );
    expectRefused(event, 422, 'VALIDATION_ERROR', 'sessionId');
    expect(event.json().details.map((d: { field: string }) => d.field)).toContain('skillId');
  });

  it('and so is a lone UTF-16 surrogate, which jsonb refuses and text would turn into U+FFFD', async () => {
    const res = await orgAdmin().post(`/api/classes/${w.a.classId}/students`, { fullNameAr: 'طالب\ud800' });
    expectRefused(res, 422, 'VALIDATION_ERROR', 'fullNameAr');
    // The name rule (PersonName: letters and marks) refuses it too; the surrogate is named either way.
    expect(res.json().details).toContainEqual({
      field: 'fullNameAr',
      issue: 'must be well-formed Unicode (no lone surrogate)',
    });
  });

  it('in path parameters and query strings without a pattern', async () => {
    expectRefused(await superAdmin().get('/api/items/%00'), 422, 'VALIDATION_ERROR', 'id');
    expectRefused(await superAdmin().get('/api/items/import/%00'), 422, 'VALIDATION_ERROR', 'batchId');
    expectRefused(await superAdmin().post('/api/admin/word-lists/%00/publish', {}), 422, 'VALIDATION_ERROR', 'id');
    expectRefused(
      await superAdmin().get('/api/admin/diagnostic-blueprint?organizationId=org%00'),
      422,
      'VALIDATION_ERROR',
      'organizationId',
    );
  });
});

describe('date-times: only instants Date and PostgreSQL can hold', () => {
  it.each([LEAP_SECOND, YEAR_ZERO])('refuses %s on audit-log, gamification audit, replay and ingest', async (bad) => {
    const q = encodeURIComponent(bad);
    expectRefused(await orgAdmin().get(`/api/admin/audit-log?from=${q}`), 422, 'VALIDATION_ERROR', 'from');
    expectRefused(await orgAdmin().get(`/api/admin/audit-log?to=${q}`), 422, 'VALIDATION_ERROR', 'to');
    expectRefused(
      await orgAdmin().get(`/api/admin/gamification/audit?studentId=${w.a.studentId}&from=${q}&to=${q}`),
      422,
      'VALIDATION_ERROR',
      'from',
    );
    expectRefused(
      await orgAdmin().post('/api/admin/gamification/replay', { studentId: w.a.studentId, asOf: bad }),
      422,
      'VALIDATION_ERROR',
      'asOf',
    );
    expectRefused(
      await orgAdmin().post('/api/gamification/mastery-events', masteryEvent({ occurredAt: bad })),
      422,
      'VALIDATION_ERROR',
      'occurredAt',
    );
  });
});

describe('school days: the calendar is checked', () => {
  it.each(['2026-13-45', '2026-02-29', '2026-04-31', '0000-01-01'])('refuses schoolDay %s', async (day) => {
    expectRefused(
      await orgAdmin().post('/api/gamification/mastery-events', masteryEvent({ schoolDay: day })),
      422,
      'VALIDATION_ERROR',
      'schoolDay',
    );
  });
});

describe('integers beyond their column', () => {
  it('refuses ids over Number.MAX_SAFE_INTEGER on the audit-log filters', async () => {
    const huge = '100000000000000000000';
    expectRefused(
      await orgAdmin().get(`/api/admin/audit-log?actorUserId=${huge}`),
      422,
      'VALIDATION_ERROR',
      'actorUserId',
    );
    expectRefused(
      await orgAdmin().get(`/api/admin/audit-log?targetStudentId=${huge}`),
      422,
      'VALIDATION_ERROR',
      'targetStudentId',
    );
  });
});

describe('router errors answer the envelope', () => {
  it('a bad percent-encoding in the path is 400 MALFORMED_PATH', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/items/%ff',
      headers: { 'x-request-id': 'fuzz-0001-abc' },
    });
    expectRefused(res, 400, 'MALFORMED_PATH');
    expect(res.headers['x-request-id']).toBe('fuzz-0001-abc');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('a path parameter over 100 characters is 414 PATH_PARAMETER_TOO_LONG', async () => {
    expectRefused(await superAdmin().get(`/api/items/${'x'.repeat(101)}`), 414, 'PATH_PARAMETER_TOO_LONG');
  });
});

describe('nothing was written', () => {
  it('leaves every table as it was', async () => {
    await t.runtime.projector.catchUp();
    expect(await rowCounts()).toEqual(before);
  });
});
