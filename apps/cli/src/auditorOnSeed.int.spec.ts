import { buildApp } from '@qiraa/app';
import { type Client, client, TEST_JWT_SECRET } from '@qiraa/app/testing';
import { inTransaction, type Sql } from '@qiraa/db';
import { untilNothingWaiting } from '@qiraa/eventstore';
import { loadConfig, openRuntime, type Runtime } from '@qiraa/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './commands/seedDemo';
import { trainingPlan } from './commands/seedDemoTraining';
import { createDemoSeededDatabase, type DemoSeededDatabase } from './testing/demoSeededDatabase';
import { runCliInProcess } from './testing/runCliInProcess';

/**
 * Issue 26's "done when", on the demo seed rather than on a hand-made child (auditorRoutes.int.spec.ts): the
 * seeded organization administrator, over HTTP only, lists a seeded child's streams, reads each, follows a
 * mastery event to its deciding event and that to its evidence, explains the XP balance and a skill status,
 * and is refused (404) on another organization's stream; `qiraa events verify` passes on the seed and fails
 * on an edited, a deleted and a re-ordered row (the immutability triggers off, as a superuser could).
 */
let seeded: DemoSeededDatabase;
let runtime: Runtime;
let app: Awaited<ReturnType<typeof buildApp>>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  seeded = await createDemoSeededDatabase();
  expect(seeded.seed.code, seeded.seed.stderr).toBe(0);
  env = { DATABASE_URL: seeded.db.url };
  runtime = await openRuntime(
    loadConfig({ DATABASE_URL: seeded.db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
    { role: 'api' },
  );
  app = await buildApp(runtime, { logLevel: 'silent' });
}, 300_000);
afterAll(async () => {
  await app?.close();
  await runtime?.close();
  await seeded?.db.drop();
});

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
type StreamItem = { streamId: string; category: string; version: number };
type Answer = { event: Item; causedBy: Item | null; caused: Item[] };

async function signIn(email: string, password = DEMO_PASSWORD): Promise<Client> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return client(app, res.json().accessToken);
}

/** Every page of an auditor list, following `next` (passed back as `cursor`) until it is null. */
async function allPages<T>(as: Client, url: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = null;
  do {
    const res = await as.get(next ? `${url}${url.includes('?') ? '&' : '?'}cursor=${next}` : url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    const body = res.json() as { items: T[]; next: string | null };
    items.push(...body.items);
    next = body.next;
  } while (next);
  return items;
}

/** Runs a change with the append-only triggers off, as a superuser could. */
async function tamper(change: (sql: Sql) => Promise<unknown>) {
  await inTransaction(seeded.db.sql, async ({ sql: tx }) => {
    await tx`alter table es_events disable trigger es_events_no_update`;
    await change(tx as unknown as Sql);
    await tx`alter table es_events enable trigger es_events_no_update`;
  });
}
/** Swaps versions 1 and 2 of a stream (the primary key dropped meanwhile); a second swap puts them back. */
const swapVersions = (streamId: string) =>
  tamper(async (sql) => {
    await sql`alter table es_events drop constraint es_events_pkey`;
    await sql`update es_events set stream_version = case stream_version when 1 then 2 else 1 end
              where stream_id = ${streamId} and stream_version in (1, 2)`;
    await sql`alter table es_events add primary key (stream_id, stream_version)`;
  });
async function verify() {
  await untilNothingWaiting(runtime.store, { timeoutMs: 60_000 });
  return runCliInProcess(['events', 'verify'], env);
}

describe('an auditor on the demo seed (issue 26)', () => {
  let admin: Client;
  /** Every seeded child's streams, by child id, as the organization administrator lists them. */
  const streamsOf = new Map<number, StreamItem[]>();
  /** The child walked through: one with a mastery event a decision caused. */
  let child: number;
  let mastery: Answer;
  /** The second organization the refusal test makes. */
  let otherOrg: string;

  it('as the seeded organization administrator, lists every seeded child’s streams from the index', async () => {
    admin = await signIn('admin@qiraa-demo.example');
    const classes = (await admin.get('/api/classes')).json() as { id: string; grade: number }[];
    expect(classes.map((c) => c.grade).sort()).toEqual([1, 2]);
    for (const cls of classes) {
      const roster = (await admin.get(`/api/classes/${cls.id}/students`)).json() as { studentId: number }[];
      for (const { studentId } of roster) {
        streamsOf.set(
          studentId,
          await allPages<StreamItem>(admin, `/api/admin/streams?studentId=${studentId}&limit=5`),
        );
      }
    }
    expect(streamsOf.size).toBe(11);
    for (const [id, streams] of streamsOf) {
      const categories = new Set(streams.map((s) => s.category));
      for (const c of ['mastery', 'xp', 'badgeaward']) expect(categories, `child ${id}`).toContain(c);
    }
  });

  it('finds a mastery event a decision caused, and that decision’s evidence among the child’s streams', async () => {
    for (const [id, streams] of streamsOf) {
      if (!streams.some((s) => s.streamId === `mastery-${id}`)) continue;
      const events = await allPages<Item>(admin, `/api/admin/streams/mastery-${id}/events?limit=100`);
      for (const event of events.filter((e) => e.data.sourceKind === 'band_progression')) {
        const answer = (await admin.get(`/api/admin/events/${event.eventId}`)).json() as Answer;
        if (answer.causedBy) {
          child = id;
          mastery = answer;
          break;
        }
      }
      if (mastery) break;
    }
    expect(mastery, 'no seeded mastery event names a decision as its cause').toBeDefined();
    const decision = mastery.causedBy!;
    expect(decision).toMatchObject({ type: 'BandProgressionDecided', streamId: `decision-${child}` });
    expect(mastery.event.metadata.causationId).toBe(decision.eventId);
    // And back: the decision lists the mastery event among what it caused; the mastery event its XP credit.
    const back = (await admin.get(`/api/admin/events/${decision.eventId}`)).json() as Answer;
    expect(back.caused.map((e) => e.eventId)).toContain(mastery.event.eventId);
    expect(mastery.caused.map((e) => e.type)).toContain('XpCredited');
    // The evidence: the two oral readings it compared, each its own stream about the child, readable.
    const streams = streamsOf.get(child)!.map((s) => s.streamId);
    for (const attempt of [decision.data.readAttemptId, decision.data.previousAttemptId]) {
      expect(streams).toContain(`orf-${attempt}`);
      const reading = await allPages<Item>(admin, `/api/admin/streams/orf-${attempt}/events`);
      expect(reading.map((e) => e.type)).toContain('OralReadingStarted');
      expect(reading.find((e) => e.type === 'OralReadingStarted')!.data.studentId).toBe(child);
    }
  });

  it('reads each of the child’s streams whole, in version order, a page at a time', async () => {
    for (const stream of streamsOf.get(child)!) {
      const events = await allPages<Item>(admin, `/api/admin/streams/${stream.streamId}/events?limit=7`);
      expect(
        events.map((e) => e.version),
        stream.streamId,
      ).toEqual(Array.from({ length: stream.version }, (_, i) => i + 1));
      for (const e of events) expect(e.metadata).toMatchObject({ correlationId: expect.any(String) });
    }
  });

  it('explains the child’s XP balance (the deltas sum to the value) and a skill status', async () => {
    const xp = (await admin.get(`/api/admin/students/${child}/explain?what=xpBalance`)).json() as {
      value: number;
      events: Item[];
    };
    expect(xp.value).toBeGreaterThan(0);
    expect(xp.events.reduce((sum, e) => sum + e.delta!, 0)).toBe(xp.value);
    expect(xp.events.map((e) => e.eventId)).toEqual(
      expect.arrayContaining(mastery.caused.filter((e) => e.type === 'XpCredited').map((e) => e.eventId)),
    );

    // A decided status: the latest SkillStatusDecided of a sub-skill on the child's decision stream.
    const decisions = await allPages<Item>(admin, `/api/admin/streams/decision-${child}/events`);
    const latest = new Map<string, Item>();
    for (const e of decisions) if (e.type === 'SkillStatusDecided') latest.set(String(e.data.subSkillId), e);
    const decided = [...latest.values()].find(
      (e) => e.data.status !== null && (e.data.evidenceEventIds as string[]).length > 0,
    );
    expect(decided, 'no decided skill status with evidence').toBeDefined();
    const res = await admin.get(
      `/api/admin/students/${child}/explain?what=skillStatus&subSkillId=${decided!.data.subSkillId}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const status = res.json() as { value: string; events: Item[] };
    expect(status.value).toBe(decided!.data.status);
    const ids = status.events.map((e) => e.eventId);
    expect(ids).toContain(decided!.eventId);
    expect(ids).toEqual(expect.arrayContaining(decided!.data.evidenceEventIds as string[]));
  });

  it('explains a seeded training level by the events of that skill', async () => {
    const seedDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Amman' }).format(new Date());
    const trained = [...streamsOf].find(([id, s]) => s.some((x) => x.streamId === `traininglevel-${id}`));
    if (trainingPlan('2026-2027', seedDay).kind !== 'days') {
      expect(trained).toBeUndefined(); // early in the year the seed trains no one, and says so
      return;
    }
    const [id] = trained!;
    const levels = await allPages<Item>(admin, `/api/admin/streams/traininglevel-${id}/events`);
    const skill = String(levels.at(-1)!.data.skillId);
    const last = levels.filter((e) => e.data.skillId === skill).at(-1)!;
    const res = await admin.get(`/api/admin/students/${id}/explain?what=trainingLevel&subSkillId=${skill}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { value: number; events: Item[] };
    expect(body.value).toBe(last.data.toLevel ?? last.data.level);
    expect(body.events.length).toBeGreaterThan(0);
    expect(body.events.every((e) => e.data.skillId === skill)).toBe(true);
  });

  it('is refused (404) on another organization’s stream and event, and that organization on the child', async () => {
    const root = await signIn('super@qiraa-demo.example');
    const org = await root.post('/api/organizations', {
      name: 'مدارس أخرى',
      slug: 'other-audit',
      country: 'JO',
      defaultLocale: 'ar-JO',
    });
    expect(org.statusCode, org.body).toBe(201);
    otherOrg = org.json().id as string;
    const made = await root.post('/api/users', {
      primaryPersona: 'ADMIN',
      email: 'admin@other-audit.example',
      password: DEMO_PASSWORD,
      fullNameAr: 'مدير آخر',
      organizationId: otherOrg,
    });
    expect(made.statusCode, made.body).toBe(201);
    const other = await signIn('admin@other-audit.example');
    // Its own read writes a stream_read entry on its own audit stream: an event of the other organization.
    expect((await other.get('/api/admin/events/verify')).statusCode).toBe(200);
    const own = await allPages<Item>(other, `/api/admin/streams/audit-${otherOrg}/events`);
    expect(own.length).toBeGreaterThan(0);

    expect((await admin.get(`/api/admin/streams/audit-${otherOrg}/events`)).statusCode).toBe(404);
    expect((await admin.get(`/api/admin/events/${own[0]!.eventId}`)).statusCode).toBe(404);
    expect((await other.get(`/api/admin/streams/mastery-${child}/events`)).statusCode).toBe(404);
    expect((await other.get(`/api/admin/events/${mastery.event.eventId}`)).statusCode).toBe(404);
    expect((await other.get(`/api/admin/streams?studentId=${child}`)).statusCode).toBe(404);
    const log = await allPages<Item>(other, '/api/admin/events?limit=500');
    expect(log.every((e) => e.metadata.organizationId === otherOrg)).toBe(true);
    // A cursor the list did not give is refused, not read.
    const forged = await admin.get(`/api/admin/streams?studentId=${child}&cursor=bm90LW91cnM`);
    expect([forged.statusCode, forged.json().reason]).toEqual([422, 'invalid_cursor']);
  });

  it('writes one stream_read audit entry per answered read, naming the reader and what was read', async () => {
    const [me] = await seeded.db.sql<{ id: number; organization_id: string }[]>`
      select id::int, organization_id from users where email = 'admin@qiraa-demo.example'`;
    const reads = () => seeded.db.sql<{ read: string; actor: number; student: number | null }[]>`
      select data->'detail'->>'read' as read, (data->>'actorUserId')::int as actor,
             (data->>'targetStudentId')::int as student
      from es_events where stream_id = ${`audit-${me!.organization_id}`} and data->>'eventType' = 'stream_read'
      order by stream_version`;
    const before = (await reads()).length;
    const mine = await allPages<Item>(admin, `/api/admin/streams/mastery-${child}/events`);
    // The log by recording time: [from, to) around the child's mastery events, every one of them in order.
    const from = mine[0]!.recordedAt;
    const to = new Date(Date.parse(mine.at(-1)!.recordedAt) + 1).toISOString();
    const window = await allPages<Item>(admin, `/api/admin/events?category=mastery&from=${from}&to=${to}&limit=500`);
    expect(window.filter((e) => e.streamId === `mastery-${child}`).map((e) => e.eventId)).toEqual(
      mine.map((e) => e.eventId),
    );
    expect(window.every((e) => e.recordedAt >= from && e.recordedAt < to)).toBe(true);
    const early = await admin.get(`/api/admin/events?category=mastery&to=${from}&limit=500`);
    expect((early.json().items as Item[]).some((e) => e.eventId === mine[0]!.eventId)).toBe(false);
    await admin.get(`/api/admin/streams?studentId=${child}`);
    await admin.get(`/api/admin/events/${mastery.event.eventId}`);
    await admin.get(`/api/admin/students/${child}/explain?what=badges`);
    await admin.get('/api/admin/events/verify');
    const after = (await reads()).slice(before);
    expect(after.map((r) => r.read)).toEqual([
      'stream_events',
      'log',
      'log',
      'student_streams',
      'event',
      'explain',
      'verify_checkpoint',
    ]);
    expect(after.every((r) => r.actor === me!.id)).toBe(true);
    expect(after.filter((r) => r.student !== null).map((r) => r.student)).toEqual([child, child]);
  });

  it('qiraa events verify passes on the seed and records a checkpoint the routes report', async () => {
    const run = await verify();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ok: \d+ events recomputed, 0 checkpoint\(s\) met\ncheckpoint: position \d+:\d+/);
    const { checkpoint } = (await admin.get('/api/admin/events/verify')).json();
    expect(run.stdout).toContain(`digest ${checkpoint.digest}`);
    // The nightly schedule recomputes the same way and meets it.
    expect(await runtime.scheduler.runNow('auditing.verify-log')).toMatchObject({ breaks: 0, checkpoints: 1 });
  });

  it('fails naming an edited event (an XP amount), and passes again once it is put back', async () => {
    const [credit] = await seeded.db.sql<{ event_id: string }[]>`
      select event_id::text from es_events
      where stream_id = ${`xp-${child}`} and event_type = 'XpCredited' order by stream_version desc limit 1`;
    await seeded.db.sql`create table saved_credit as select * from es_events where event_id = ${credit!.event_id}`;
    await tamper(
      (sql) => sql`update es_events set data = jsonb_set(data, '{amount}', '250') where event_id = ${credit!.event_id}`,
    );
    const broken = await verify();
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(new RegExp(`first broken: event ${credit!.event_id} \\(stream xp-${child} version`));
    // Narrowed runs: the organization's streams find it, another organization's do not hold it; `--since`
    // recomputes only what follows the position (a checkpoint never vouches for the rest) and records none.
    const seededOrg = String(mastery.event.metadata.organizationId);
    expect((await runCliInProcess(['events', 'verify', '--org', seededOrg], env)).code).toBe(1);
    expect((await runCliInProcess(['events', 'verify', '--org', otherOrg], env)).code).toBe(0);
    const xp = await allPages<Item>(admin, `/api/admin/streams/xp-${child}/events?limit=500`);
    const edited = xp.find((e) => e.eventId === credit!.event_id)!;
    expect((await runCliInProcess(['events', 'verify', '--since', xp[0]!.position], env)).code).toBe(1);
    const past = await runCliInProcess(['events', 'verify', '--since', edited.position], env);
    expect(past.code, past.stderr).toBe(0);
    expect(past.stdout).toMatch(
      new RegExp(`^ok: \\d+ events recomputed \\(after ${edited.position}\\), 0 checkpoint\\(s\\) met\n$`),
    );
    await tamper((sql) => sql`update es_events e set data = s.data from saved_credit s where e.event_id = s.event_id`);
    const restored = await verify();
    expect(restored.code, restored.stderr).toBe(0);
  });

  it('fails naming a deleted event by its stream and version, and passes again once it is put back', async () => {
    await seeded.db.sql`create table saved_mastery as select * from es_events
                        where stream_id = ${`mastery-${child}`} and stream_version = 2`;
    await tamper((sql) => sql`delete from es_events where stream_id = ${`mastery-${child}`} and stream_version = 2`);
    const broken = await verify();
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`first broken: stream mastery-${child} version 2: event missing (deleted)`);
    await tamper((sql) => sql`insert into es_events select * from saved_mastery`);
    const restored = await verify();
    expect(restored.code, restored.stderr).toBe(0);
  });

  it('fails on two events of a stream re-ordered, and passes again once the order is restored', async () => {
    const stream = `xp-${child}`;
    await swapVersions(stream);
    const broken = await verify();
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(new RegExp(`first broken: event [0-9a-f-]{36} \\(stream ${stream} version [12],`));
    await swapVersions(stream);
    const restored = await verify();
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/[1-9]\d* checkpoint\(s\) met/);
  });
});
