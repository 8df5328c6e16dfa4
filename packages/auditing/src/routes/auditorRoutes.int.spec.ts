import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { importDemoScreeningForms, setWindows } from '@qiraa/assessment/testing';
import { decisionRewardsReaction } from '@qiraa/decisions';
import { untilNothingWaiting } from '@qiraa/eventstore';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyLog } from '../replay/verifyLog';

const { t, w } = useTestWorld();
const YEAR = '2026-2027';
const REQUEST_ID = `audit-request-${process.pid}`;
let admin: Client;
let studentId: number;
let teacherId: number;
type Item = {
  eventId: string;
  streamId: string;
  version: number;
  position: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recordedAt: string;
  delta?: number;
};

/** Every page of a list, following `next` until it is null. */
async function allPages<T>(as: Client, url: string): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pages = 0;
  let next: string | null = null;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res = await as.get(next ? `${url}${sep}cursor=${next}` : url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { items: T[]; next: string | null };
    items.push(...body.items);
    next = body.next;
    pages++;
  } while (next);
  return { items, pages };
}

beforeAll(async () => {
  await importDemoScreeningForms(t.db.sql);
  await setWindows(t.db.sql, w.a.id, YEAR, 'BOY');
  admin = client(t.app, w.a.adminToken);
  const teacher = client(t.app, w.a.teacherToken);
  teacherId = w.a.teacherId;
  const [{ id: passageId }] = (await t.db.sql`
    select id from content_passages where external_id = 'g2-boy-screen-text1'`) as unknown as [{ id: string }];
  const user = await client(t.app, w.superToken).post('/api/users', {
    primaryPersona: 'STUDENT',
    fullNameAr: 'سلمى',
    classId: w.a.classId,
    quickCode: '71',
  });
  expect(user.statusCode, user.body).toBe(201);
  studentId = user.json().id;
  // Two oral readings: developing, then on_track (a band progression: a mastery event, XP and a badge).
  for (const words of [20, 30]) {
    // The first reading starts with a request id of the client's own: its events carry it.
    const started =
      words === 20
        ? await t.app.inject({
            method: 'POST',
            url: '/api/orf/assessments',
            payload: { studentId, passageId },
            headers: { authorization: `Bearer ${w.a.teacherToken}`, 'x-request-id': REQUEST_ID },
          })
        : await teacher.post('/api/orf/assessments', { studentId, passageId });
    expect(started.statusCode, started.body).toBe(201);
    const stopped = await teacher.post(`/api/orf/assessments/${started.json().id}/stop`, {
      lastWordIndex: words - 1,
      elapsedSeconds: 60,
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
  }
  // The decisions' rewards (mastery events, XP, badges) are a reaction: run it before the streams are read.
  // Other test databases' open transactions hold the cluster's xmin back; under load that is more than the
  // default 10 s (the reaction then returned `waiting` and every later test found no mastery stream).
  const rewards = await t.runtime.reactor.catchUp(decisionRewardsReaction.name, { timeoutMs: 90_000 });
  expect(rewards.get(decisionRewardsReaction.name)).toMatchObject({ kind: 'caught_up', parked: 0, waiting: false });
  await untilNothingWaiting(t.runtime.store, { timeoutMs: 90_000 });
  await t.runtime.projector.catchUp();
}, 240_000);

describe('auditor routes (issue 26)', () => {
  let streams: { streamId: string; category: string; version: number }[];

  it("lists every stream about the child, a page at a time, from the append's index", async () => {
    const { items, pages } = await allPages<{ streamId: string; category: string; version: number }>(
      admin,
      `/api/admin/streams?studentId=${studentId}&limit=2`,
    );
    streams = items;
    expect(pages).toBeGreaterThan(1);
    const categories = new Set(items.map((s) => s.category));
    for (const c of ['orf', 'decision', 'mastery', 'xp', 'badgeaward']) expect(categories).toContain(c);
    expect(items.map((s) => s.streamId)).toEqual([...items.map((s) => s.streamId)].sort());
    expect(items[0]).toEqual({
      streamId: expect.any(String),
      category: expect.any(String),
      version: expect.any(Number),
      firstRecordedAt: expect.any(String),
      lastRecordedAt: expect.any(String),
    });
  });

  it('reads each stream in version order; new events carry actor, organization, correlation and causation', async () => {
    for (const stream of streams) {
      const { items } = await allPages<Item>(admin, `/api/admin/streams/${stream.streamId}/events?limit=1`);
      expect(items.map((e) => e.version)).toEqual(Array.from({ length: stream.version }, (_, i) => i + 1));
      for (const e of items) {
        expect(e.metadata).toMatchObject({
          organizationId: w.a.id,
          correlationId: expect.any(String),
          causationId: expect.any(String),
        });
        expect(e.metadata.actorUserId === teacherId || typeof e.metadata.systemActor === 'string').toBe(true);
      }
    }
    // Stamped by the HTTP layer's write context, not by the command: the caller, the request id.
    const started = await allPages<Item>(admin, '/api/admin/events?type=OralReadingStarted&limit=500');
    const mine = started.items.filter((e) => e.metadata.correlationId === REQUEST_ID);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.metadata).toEqual({
      actorUserId: teacherId,
      organizationId: w.a.id,
      correlationId: REQUEST_ID,
      causationId: REQUEST_ID,
    });
  });

  it('follows a mastery event to the decision that caused it, and back', async () => {
    const mastery = (await admin.get(`/api/admin/streams/mastery-${studentId}/events`)).json().items as Item[];
    expect(mastery.length).toBeGreaterThan(0);
    const res = await admin.get(`/api/admin/events/${mastery[0]!.eventId}`);
    expect(res.statusCode, res.body).toBe(200);
    const { event, causedBy, caused } = res.json() as { event: Item; causedBy: Item | null; caused: Item[] };
    expect(event.eventId).toBe(mastery[0]!.eventId);
    expect(causedBy).toMatchObject({ type: 'BandProgressionDecided', streamId: `decision-${studentId}` });
    // What the mastery event earned (XP, a badge) names it as cause.
    expect(caused.map((e) => e.type)).toContain('XpCredited');
    const decision = (await admin.get(`/api/admin/events/${causedBy!.eventId}`)).json();
    expect(decision.caused.map((e: Item) => e.eventId)).toContain(event.eventId);
    // The decision's evidence: the readings it compared, on their own streams.
    const reads = [causedBy!.data.readAttemptId, causedBy!.data.previousAttemptId];
    for (const id of reads) expect(streams.map((s) => s.streamId)).toContain(`orf-${id}`);
  });

  it('explains the XP balance: the deltas sum to the value', async () => {
    const res = await admin.get(`/api/admin/students/${studentId}/explain?what=xpBalance`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { what: string; value: number; events: Item[] };
    expect(body.what).toBe('xpBalance');
    expect(body.value).toBeGreaterThan(0);
    expect(body.events.reduce((sum, e) => sum + (e.delta ?? 0), 0)).toBe(body.value);
    expect(body.events.every((e) => e.streamId === `xp-${studentId}`)).toBe(true);
  });

  it('explains a skill status by its deciding event and the evidence it weighed', async () => {
    const res = await admin.get(
      `/api/admin/students/${studentId}/explain?what=skillStatus&subSkillId=or_connected_text`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { value: string; events: Item[] };
    expect(body.value).toBe('developing');
    expect(body.events.map((e) => e.type)).toContain('SkillStatusDecided');
    expect(body.events.some((e) => e.streamId.startsWith('orf-'))).toBe(true);
    const badges = (await admin.get(`/api/admin/students/${studentId}/explain?what=badges`)).json();
    expect(badges.value).toContain('first_step');
    expect(badges.events.map((e: Item) => e.type)).toContain('BadgeAwarded');
    const missing = await admin.get(`/api/admin/students/${studentId}/explain?what=skillStatus`);
    expect(missing.statusCode).toBe(422);
  });

  it('lists the global log in commit order, filtered, to the end', async () => {
    const { items } = await allPages<Item>(admin, '/api/admin/events?category=xp&limit=2');
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((e) => e.streamId.startsWith('xp-'))).toBe(true);
    const typed = await allPages<Item>(admin, '/api/admin/events?type=BadgeAwarded');
    expect(typed.items.every((e) => e.type === 'BadgeAwarded')).toBe(true);
    const after = await admin.get(`/api/admin/events?after=${items[0]!.position}&category=xp&limit=500`);
    expect(after.json().items.map((e: Item) => e.eventId)).toEqual(items.slice(1).map((e) => e.eventId));
    const future = await admin.get('/api/admin/events?from=2999-01-01T00:00:00Z');
    expect(future.json()).toEqual({ items: [], next: null });
  });

  it("keeps another organization's streams, events and students out of reach (404) and needs RUN_BACKOFFICE (403)", async () => {
    const other = client(t.app, w.b.adminToken);
    const mastery = (await admin.get(`/api/admin/streams/mastery-${studentId}/events`)).json().items as Item[];
    expect((await other.get(`/api/admin/streams/mastery-${studentId}/events`)).statusCode).toBe(404);
    expect((await other.get(`/api/admin/events/${mastery[0]!.eventId}`)).statusCode).toBe(404);
    expect((await other.get(`/api/admin/streams?studentId=${studentId}`)).statusCode).toBe(404);
    expect((await other.get(`/api/admin/students/${studentId}/explain?what=xpBalance`)).statusCode).toBe(404);
    const log = await allPages<Item>(other, '/api/admin/events?limit=500');
    expect(log.items.some((e) => e.streamId === `mastery-${studentId}`)).toBe(false);
    expect((await admin.get('/api/admin/streams/nope-1/events')).statusCode).toBe(404);
    const teacher = client(t.app, w.a.teacherToken);
    expect((await teacher.get(`/api/admin/streams/mastery-${studentId}/events`)).statusCode).toBe(403);
    expect((await teacher.get('/api/admin/events')).statusCode).toBe(403);
    // The super scope reads every organization's.
    const root = client(t.app, w.superToken);
    expect((await root.get(`/api/admin/streams/mastery-${studentId}/events`)).statusCode).toBe(200);
  });

  it('writes a stream_read audit-log entry for every read', async () => {
    const before = await reads();
    await admin.get(`/api/admin/streams/xp-${studentId}/events`);
    await admin.get('/api/admin/events/verify');
    expect(await reads()).toBe(before + 2);
    const [last] = await t.db.sql<{ data: Record<string, unknown> }[]>`
      select data from es_events where stream_id = ${`audit-${w.a.id}`} order by stream_version desc limit 2`;
    expect(last!.data).toMatchObject({ eventType: 'stream_read', actorUserId: expect.any(Number) });
  });

  it('reports the last verified checkpoint', async () => {
    expect((await admin.get('/api/admin/events/verify')).json()).toEqual({ checkpoint: null });
    await untilNothingWaiting(t.runtime.store);
    const report = await verifyLog(t.runtime.store, { record: { at: t.runtime.clock.now() } });
    expect(report.breaks).toEqual([]);
    const res = await admin.get('/api/admin/events/verify');
    expect(res.json().checkpoint).toEqual({
      position: report.recorded!.position,
      events: report.recorded!.events,
      digest: report.recorded!.digest,
      verifiedAt: expect.any(String),
    });
  });
});

async function reads(): Promise<number> {
  const [row] = await t.db.sql<{ n: number }[]>`
    select count(*)::int as n from es_events
    where stream_id = ${`audit-${w.a.id}`} and data->>'eventType' = 'stream_read'`;
  return row!.n;
}

describe('the global log of one organization (organizationId, issue 26)', () => {
  const root = () => client(t.app, w.superToken);
  const page = async (as: Client, url: string) => {
    const res = await as.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Item[]; next: string | null };
  };

  beforeAll(async () => {
    // Organization B's administrator reads: a `stream_read` on `audit-<B>`, an event of B's in the log.
    expect((await client(t.app, w.b.adminToken).get('/api/admin/events/verify')).statusCode).toBe(200);
    await untilNothingWaiting(t.runtime.store, { timeoutMs: 90_000 });
  }, 120_000);

  it("filters two organizations' events apart for the super scope, a page at a time", async () => {
    const a = await allPages<Item>(root(), `/api/admin/events?organizationId=${w.a.id}&limit=3`);
    const b = await allPages<Item>(root(), `/api/admin/events?organizationId=${w.b.id}&limit=3`);
    // Paging with next kept the filter: every page of A's is A's.
    expect(a.pages).toBeGreaterThan(1);
    expect(a.items.map((e) => e.streamId)).toContain(`mastery-${studentId}`);
    expect(a.items.some((e) => e.metadata.organizationId === w.b.id)).toBe(false);
    expect(b.items.map((e) => e.streamId)).toContain(`audit-${w.b.id}`);
    expect(b.items.some((e) => e.streamId === `mastery-${studentId}` || e.metadata.organizationId === w.a.id)).toBe(
      false,
    );
    const inA = new Set(a.items.map((e) => e.eventId));
    expect(b.items.filter((e) => inA.has(e.eventId))).toEqual([]);
    // Both are in the whole log, in the same commit order.
    const whole = await allPages<Item>(root(), '/api/admin/events?limit=500');
    const order = whole.items.map((e) => e.eventId);
    expect(order.filter((id) => inA.has(id))).toEqual(a.items.map((e) => e.eventId));
    // Narrowed, the super scope reads what the organization's administrator reads (that list is later, so longer).
    const own = await allPages<Item>(admin, '/api/admin/events?limit=500');
    expect(own.items.slice(0, a.items.length).map((e) => e.eventId)).toEqual(a.items.map((e) => e.eventId));
  });

  it("keeps a cursor to the organization it was given for (422 invalid_cursor under another's)", async () => {
    const first = await page(root(), `/api/admin/events?organizationId=${w.a.id}&limit=1`);
    expect(first.next).toEqual(expect.any(String));
    const again = await page(root(), `/api/admin/events?organizationId=${w.a.id}&limit=1&cursor=${first.next}`);
    expect(again.items[0]!.eventId).not.toBe(first.items[0]!.eventId);
    for (const other of [`organizationId=${w.b.id}&`, '']) {
      const res = await root().get(`/api/admin/events?${other}limit=1&cursor=${first.next}`);
      expect([res.statusCode, res.json().reason], other).toEqual([422, 'invalid_cursor']);
    }
    // A whole-log cursor does not continue one organization's pages either.
    const whole = await page(root(), '/api/admin/events?limit=1');
    const narrowed = await root().get(`/api/admin/events?organizationId=${w.a.id}&limit=1&cursor=${whole.next}`);
    expect([narrowed.statusCode, narrowed.json().reason]).toEqual([422, 'invalid_cursor']);
  });

  it("lets an organization administrator name their own (as omitting it), never another's (404)", async () => {
    const named = await page(admin, `/api/admin/events?organizationId=${w.a.id}&limit=2`);
    const omitted = await page(admin, '/api/admin/events?limit=2');
    expect(named).toEqual(omitted);
    // Their own scope's cursor, with or without naming it.
    expect((await admin.get(`/api/admin/events?limit=2&cursor=${named.next}`)).statusCode).toBe(200);
    const other = await admin.get(`/api/admin/events?organizationId=${w.b.id}`);
    const missing = await admin.get('/api/admin/events?organizationId=org_AAAAAAAAAAAA');
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    // The super scope: a missing organization is 404 too; a teacher naming another organization 404, their own 403.
    expect((await root().get('/api/admin/events?organizationId=org_AAAAAAAAAAAA')).statusCode).toBe(404);
    const teacher = client(t.app, w.a.teacherToken);
    expect((await teacher.get(`/api/admin/events?organizationId=${w.b.id}`)).statusCode).toBe(404);
    expect((await teacher.get(`/api/admin/events?organizationId=${w.a.id}`)).statusCode).toBe(403);
  });

  it('refuses a value that is not an organization id (422)', async () => {
    const res = await root().get('/api/admin/events?organizationId=not-an-org');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['organizationId']);
  });

  it('names the organization read in its stream_read entry', async () => {
    await admin.get(`/api/admin/events?organizationId=${w.a.id}&limit=1`);
    const [last] = await t.db.sql<{ data: { detail: Record<string, unknown> } }[]>`
      select data from es_events where stream_id = ${`audit-${w.a.id}`} order by stream_version desc limit 1`;
    expect(last!.data.detail).toEqual({ read: 'log', organizationId: w.a.id });
  });
});
