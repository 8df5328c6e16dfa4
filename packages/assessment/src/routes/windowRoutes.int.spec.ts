import { client, useTestWorld } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITTING_STOPPED, streams } from '../events';
import { startOralReading, startSitting } from '../testing/attempts';
import { calendarOpenToday, yearsAround } from '../testing/years';

const { t, w } = useTestWorld();
const { next, current } = yearsAround();
const BASE = '/api/admin/assessment-windows';
const deps = () => ({ sql: t.runtime.sql, store: t.runtime.store });
const place = () => ({
  organizationId: w.a.id,
  schoolId: w.a.schoolId,
  classId: w.a.classId,
  studentId: w.a.studentId,
});

let admin: ReturnType<typeof client>;
beforeAll(() => {
  admin = client(t.app, w.a.adminToken);
});

const lastType = async (attemptId: string) => {
  const events = await t.runtime.store.readStream(streams.sitting(attemptId));
  return events[events.length - 1]!;
};

describe('GET /api/admin/assessment-windows', () => {
  it('answers the default calendar while none is stored', async () => {
    const res = await admin.get(`${BASE}?organizationId=${w.a.id}&academicYear=${next}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ organizationId: w.a.id, academicYear: next, source: 'default', openWindow: null });
    expect(body.windows.map((x: { window: string }) => x.window)).toEqual(['BOY', 'MOY', 'EOY']);
    expect(body.windows[0]).toMatchObject({ startsOn: `${next.slice(0, 4)}-09-01`, open: false, openTrigger: null });
  });

  it('is 404 for another or an unknown organization, 403 for a teacher, 422 for a bad year', async () => {
    expect((await admin.get(`${BASE}?organizationId=${w.b.id}&academicYear=${next}`)).statusCode).toBe(404);
    expect((await admin.get(`${BASE}?organizationId=org_nope&academicYear=${next}`)).statusCode).toBe(404);
    const teacher = client(t.app, w.a.teacherToken);
    expect((await teacher.get(`${BASE}?organizationId=${w.a.id}&academicYear=${next}`)).statusCode).toBe(403);
    expect((await teacher.get(`${BASE}?organizationId=${w.b.id}&academicYear=${next}`)).statusCode).toBe(404);
    const bad = await admin.get(`${BASE}?organizationId=${w.a.id}&academicYear=2026-2028`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([{ field: 'academicYear', issue: 'must be two consecutive years' }]);
  });

  it('lets the super-scope administrator read any organization', async () => {
    const res = await client(t.app, w.superToken).get(`${BASE}?organizationId=${w.b.id}&academicYear=${next}`);
    expect(res.statusCode).toBe(200);
  });
});

describe('PUT /api/admin/assessment-windows/{academicYear}', () => {
  const year = '2031-2032';
  const good = [
    { window: 'BOY', startsOn: '2031-09-07', endsOn: '2031-10-08' },
    { window: 'MOY', startsOn: '2032-01-10', endsOn: '2032-02-10' },
    { window: 'EOY', startsOn: '2032-05-01', endsOn: '2032-05-30' },
  ];

  it('refuses a calendar with every problem named, and writes nothing', async () => {
    const res = await admin.put(`${BASE}/${year}`, {
      organizationId: w.a.id,
      windows: [
        { window: 'BOY', startsOn: '2031-10-08', endsOn: '2031-09-07' },
        { window: 'MOY', startsOn: '2031-09-20', endsOn: '2032-08-10' },
        { window: 'MOY', startsOn: '2032-01-10', endsOn: '2032-02-10' },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'ends_before_start' });
    expect(res.json().details).toEqual([
      { field: 'windows.BOY', issue: 'ends_before_start' },
      { field: 'windows.MOY', issue: 'window_repeated' },
      { field: 'windows.MOY', issue: 'outside_academic_year' },
      { field: 'windows.MOY', issue: 'windows_overlap_or_out_of_order' },
      { field: 'windows.EOY', issue: 'window_missing' },
    ]);
    const read = await admin.get(`${BASE}?organizationId=${w.a.id}&academicYear=${year}`);
    expect(read.json().source).toBe('default');
  });

  it('is strict: another key is 400 UNKNOWN_FIELD', async () => {
    const res = await admin.put(`${BASE}/${year}`, { organizationId: w.a.id, windows: good, note: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('UNKNOWN_FIELD');
  });

  it('stores the calendar; reads answer it', async () => {
    const res = await admin.put(`${BASE}/${year}`, { organizationId: w.a.id, windows: good });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ source: 'stored', stoppedSittings: 0 });
    const read = await admin.get(`${BASE}?organizationId=${w.a.id}&academicYear=${year}`);
    expect(read.json().windows.map((x: { startsOn: string }) => x.startsOn)).toEqual([
      '2031-09-07',
      '2032-01-10',
      '2032-05-01',
    ]);
    const other = await admin.get(`${BASE}?organizationId=${w.b.id}&academicYear=${year}`);
    expect(other.statusCode).toBe(404);
    expect(
      (await client(t.app, w.b.adminToken).get(`${BASE}?organizationId=${w.b.id}&academicYear=${year}`)).json(),
    ).toMatchObject({ source: 'default' });
  });

  it('opens a window on its calendar days, and ends its sittings when new dates close it', async () => {
    const calendar = calendarOpenToday();
    const set = await admin.put(`${BASE}/${current}`, { organizationId: w.a.id, windows: calendar.windows });
    expect(set.statusCode).toBe(200);
    expect(set.json().openWindow).toBe(calendar.open);
    expect(set.json().windows.find((x: { window: string }) => x.window === calendar.open)).toMatchObject({
      open: true,
      openTrigger: 'calendar',
    });
    const sitting = await startSitting(deps(), { ...place(), academicYear: current, window: calendar.open });
    // The same dates moved a year on: nothing is open today any more.
    const later = calendar.windows.map((x) => ({
      window: x.window,
      startsOn: x.startsOn,
      endsOn: x.window === calendar.open ? x.startsOn : x.endsOn,
    }));
    const res = await admin.put(`${BASE}/${current}`, { organizationId: w.a.id, windows: later });
    if (calendar.windows.find((x) => x.window === calendar.open)!.startsOn === yearsAround().today) {
      // Today is the window's first day: shortening it to that day keeps it open; nothing to check then.
      return;
    }
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ openWindow: null, stoppedSittings: 1 });
    expect((await lastType(sitting.attemptId)).data).toMatchObject({ reason: 'window_closed' });
  });
});

describe('open and close by hand', () => {
  const open = (window: string, token = w.a.adminToken, organizationId = w.a.id) =>
    client(t.app, token).post(`${BASE}/${next}/${window}/open`, { organizationId });
  const close = (window: string, token = w.a.adminToken, organizationId = w.a.id) =>
    client(t.app, token).post(`${BASE}/${next}/${window}/close`, { organizationId });

  it('opens a window before its calendar days (manual), one window at a time', async () => {
    const res = await open('MOY');
    expect(res.statusCode).toBe(200);
    expect(res.json().openWindow).toBe('MOY');
    expect(res.json().windows[1]).toMatchObject({ open: true, openTrigger: 'manual', closedEarly: false });
    expect((await open('MOY')).json()).toMatchObject({ code: 'CONFLICT', reason: 'already_open' });
    expect((await open('EOY')).json()).toMatchObject({ code: 'CONFLICT', reason: 'another_window_open' });
    expect((await open('EOY')).statusCode).toBe(409);
  });

  it('refuses other callers: teacher 403, another organization 404', async () => {
    expect((await open('EOY', w.a.teacherToken)).statusCode).toBe(403);
    expect((await close('MOY', w.a.principalToken)).statusCode).toBe(403);
    expect((await close('MOY', w.a.adminToken, w.b.id)).statusCode).toBe(404);
    expect((await close('MOY', w.a.teacherToken, w.b.id)).statusCode).toBe(404);
    const strict = await client(t.app, w.a.adminToken).post(`${BASE}/${next}/MOY/close`, {
      organizationId: w.a.id,
      at: 'now',
    });
    expect(strict.statusCode).toBe(400);
  });

  it('closing ends every open digital sitting of the organization, year and window, and nothing else', async () => {
    const a = place();
    const openSitting = await startSitting(deps(), { ...a, academicYear: next, window: 'MOY' });
    await openSitting.answer(1);
    const secondOpen = await startSitting(deps(), { ...a, academicYear: next, window: 'MOY' });
    const done = await startSitting(deps(), { ...a, academicYear: next, window: 'MOY' });
    await done.complete();
    const otherWindow = await startSitting(deps(), { ...a, academicYear: next, window: 'EOY' });
    const otherOrg = await startSitting(deps(), {
      organizationId: w.b.id,
      schoolId: w.b.schoolId,
      classId: w.b.classId,
      studentId: w.b.studentId,
      academicYear: next,
      window: 'MOY',
    });
    const reading = await startOralReading(deps(), { ...a, academicYear: next, window: 'MOY' });

    const res = await close('MOY');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ openWindow: null, stoppedSittings: 2 });
    expect(res.json().windows[1]).toMatchObject({ open: false, openTrigger: null, closedEarly: true });
    for (const s of [openSitting, secondOpen]) {
      const last = await lastType(s.attemptId);
      expect(last.type).toBe(SITTING_STOPPED);
      expect(last.data).toMatchObject({ attemptId: s.attemptId, reason: 'window_closed' });
    }
    expect((await lastType(done.attemptId)).type).toBe('SittingCompleted');
    expect((await lastType(otherWindow.attemptId)).type).toBe('SittingStarted');
    expect((await lastType(otherOrg.attemptId)).type).toBe('SittingStarted');
    const rows = await t.runtime.sql<{ attempt_id: string; status: string; end_reason: string | null }[]>`
      select attempt_id, status, end_reason from asm_attempts where attempt_id in ${t.runtime.sql([
        openSitting.attemptId,
        reading.attemptId,
      ])}`;
    expect(Object.fromEntries(rows.map((r) => [r.attempt_id, [r.status, r.end_reason]]))).toEqual({
      [openSitting.attemptId]: ['stopped', 'window_closed'],
      [reading.attemptId]: ['in_progress', null],
    });

    // Closing again repeats the answer and ends nothing twice.
    const again = await close('MOY');
    expect(again.statusCode).toBe(200);
    expect(again.json().stoppedSittings).toBe(0);
    expect((await t.runtime.store.readStream(streams.sitting(openSitting.attemptId))).length).toBe(3);
  });

  it('a window not open cannot be closed; a closed one can be opened again', async () => {
    expect((await close('EOY')).json()).toMatchObject({ code: 'CONFLICT', reason: 'window_not_open' });
    const reopened = await open('MOY');
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().windows[1]).toMatchObject({ open: true, openTrigger: 'manual', closedEarly: false });
    expect((await close('MOY')).statusCode).toBe(200);
  });

  it('a window whose last day has passed cannot be opened', async () => {
    const res = await client(t.app, w.a.adminToken).post(`${BASE}/2020-2021/BOY/open`, { organizationId: w.a.id });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'window_ended' });
  });
});
