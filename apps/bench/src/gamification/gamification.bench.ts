/**
 * npm run bench:gamification [-- --small --ingest N --clients C --students S --batch B --school-students M
 *                                --class-size K --board-events E --board-days D --board-runs R --replay-events P
 *                                --replay-runs Q]
 *
 * On a fresh database (BENCH_DATABASE_URL / TEST_DATABASE_URL's server, else an embedded server), with the
 * real API listening on a random loopback port:
 * 1. HTTP ingest: C concurrent fetch clients POST /api/gamification/mastery-events as an organization admin,
 *    then the same number of events in requests of B to .../mastery-events/batch, against raw single-row
 *    INSERTs into a table shaped like gam_mastery_events from C writers;
 * 2. the gamification_ledger projection: cold catch-up and rebuild over the ingested events;
 * 3. GET /api/leaderboards/school/{id} for a school of M students with E mastery events, windows 14 and 90;
 * 4. recordMasteryEvent in process, one event after another (P events of one student), against raw
 *    single-row INSERTs from one writer; then replayReport of that student;
 * 5. GET /api/students/{id}/gamification/profile against a bare fastify answering the same JSON.
 * Ends with one JSON line (apps/bench/src/jsonLine.ts): each figure beside its baseline from this run.
 * --small cuts every size down (see args.ts) for a run of a minute or two.
 */
import { connect, type Sql, WireCounter } from '@qiraa/db';
import { recordMasteryEvent } from '@qiraa/gamification';
import { acquireDatabase, type BenchDatabase } from '../database';
import { machineFacts } from '../facts';
import { type BenchFigure, printBenchJson } from '../jsonLine';
import { timed } from '../measure';
import { fmt, formatTable, section } from '../report';
import { perCommand, wireFigures, wireTable } from '../roundTrips';
import { login, type RunningApi, startApi } from './api';
import { readArgs } from './args';
import { recordWithoutCommitFlush } from './asyncCommit';
import {
  countRows,
  createRawMasteryTable,
  httpBatchIngester,
  httpIngester,
  ingestEvent,
  type LatencyStats,
  RAW_TABLE,
  rawInserter,
  runTimed,
} from './ingest';
import { interruption, throwIfInterrupted } from './interruption';
import {
  type BoardTiming,
  expectedWindowTotal,
  seedBoardEvents,
  timeRawCountBoard,
  timeSchoolBoard,
} from './leaderboard';
import { timeProfile } from './profile';
import { benchLedgerProjection, type ProjectionTiming } from './projection';
import { type ReplayTiming, replayDaysNeeded, seedReplayStudent, timeReplay } from './replay';
import { recentSchoolDays } from './schoolDays';
import { BENCH_PASSWORD, bulkSchool, createBenchOrganization, enrolledSchool } from './tenants';

const WARMUP = 200;
const BOARD_WINDOWS = [14, 90] as const;
const NAME = 'bench:gamification';

const seconds = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const ms = (value: number) => fmt(value, value < 10 ? 2 : 1);

async function main(): Promise<void> {
  const args = readArgs();
  const started = Date.now();

  // One cleanup for the normal end, a failure and Ctrl-C: close the API, then drop the database (and stop
  // the embedded server). Each step is registered as soon as there is something to undo.
  const cleanups: Array<() => Promise<void>> = [];
  let cleaning: Promise<void> | null = null;
  let interrupted = false;
  const cleanUp = () => {
    cleaning ??= (async () => {
      while (cleanups.length > 0) {
        try {
          await cleanups.pop()!();
        } catch (error) {
          console.error(`cleanup step failed: ${(error as Error).message}`);
        }
      }
    })();
    return cleaning;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return; // npm and tsx relay the terminal's Ctrl-C again: handle it once
    interrupted = true;
    interruption.requested = true;
    console.error(`\n${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('uncaughtException', (error) => {
    if (!interrupted) console.error(`${NAME} crashed: ${error.stack ?? error.message}`);
    void cleanUp().finally(() => process.exit(interrupted ? 130 : 1));
  });

  try {
    const db: BenchDatabase = await acquireDatabase((line) => console.log(line));
    cleanups.push(() => db.release());
    throwIfInterrupted();

    // The API migrates the fresh database while it opens.
    const wire = new WireCounter();
    const api: RunningApi = await startApi(db.url, { wire });
    cleanups.push(() => api.close());
    const sql: Sql = connect(db.url, { max: args.clients + 2, applicationName: 'qiraa-bench' });
    cleanups.push(() => sql.end({ timeout: 5 }));
    const deps = { sql: api.runtime.sql, store: api.runtime.store };
    throwIfInterrupted();

    section('machine');
    console.log(formatTable(['fact', 'value'], await machineFacts(sql, db), false));
    console.log(`api: ${api.baseUrl} (fastify, in this process), ${api.runtime.store.adapter} event store`);
    console.log(
      `flags:${args.small ? ' --small' : ''} --ingest ${args.ingest} --batch ${args.batch} --clients ${args.clients} --students ${args.students} ` +
        `--school-students ${args.schoolStudents} --class-size ${args.classSize} --board-events ${args.boardEvents} ` +
        `--board-days ${args.boardDays} --board-runs ${args.boardRuns} --replay-events ${args.replayEvents} ` +
        `--replay-runs ${args.replayRuns}`,
    );

    // ---------------------------------------------------------------- tenants
    section('tenants');
    const org = await createBenchOrganization(sql);
    const ingestSchool = await timed(() => enrolledSchool(sql, org, 'مدرسة الاستقبال', args.students + 1));
    const [replayStudent, ...ingestStudents] = ingestSchool.result.studentIds;
    console.log(
      `organization ${org.id} (${org.timeZone}); ingest school ${ingestSchool.result.schoolId}: ` +
        `${fmt(args.students + 1)} students enrolled through enrollStudent in ${seconds(ingestSchool.elapsedMs)}`,
    );

    // ---------------------------------------------------------------- 1. ingest
    section(`1. ingest: ${fmt(args.ingest)} mastery events, ${args.clients} clients, ${fmt(args.students)} students`);
    const ingestDays = recentSchoolDays(Math.ceil((2 * args.ingest + WARMUP) / args.students / 2) + 1, org.timeZone);
    const event = (i: number) => ingestEvent('bench-http', i, ingestStudents, ingestDays);
    let token = await login(api.baseUrl, org.adminEmail, BENCH_PASSWORD);
    console.log(`logged in ${org.adminEmail} (organization ADMIN: RUN_BACKOFFICE) via POST /api/auth/login`);
    const postEvent = httpIngester(api.baseUrl, token);
    await createRawMasteryTable(sql);
    const insertRaw = rawInserter(sql, org.id);
    const warmup = Math.min(WARMUP, args.ingest);
    const socketsBefore = api.connections();
    await runTimed(warmup, args.clients, (i) => postEvent(event(i)));
    await runTimed(warmup, args.clients, (i) => insertRaw(event(i)));
    const http = await runTimed(args.ingest, args.clients, (i) => postEvent(event(warmup + i)));
    // Keep-alive check: undici opens a few more sockets than clients (a loop's next request can go out
    // before the previous socket is marked idle), but nowhere near one per request.
    const sockets = api.connections() - socketsBefore;
    console.log(
      `HTTP: ${fmt(http.perSecond)} events/s, p50 ${ms(http.p50Ms)} ms, p99 ${ms(http.p99Ms)} ms ` +
        `(${sockets} TCP connections for ${fmt(warmup + args.ingest)} requests, warm-up included)`,
    );
    const postBatch = httpBatchIngester(api.baseUrl, token);
    const batches = Math.ceil(args.ingest / args.batch);
    const batchEvent = (i: number) => event(warmup + args.ingest + i);
    const batchedRun = await runTimed(batches, args.clients, (b) =>
      postBatch(
        Array.from({ length: Math.min(args.batch, args.ingest - b * args.batch) }, (_, k) =>
          batchEvent(b * args.batch + k),
        ),
      ),
    );
    const batched = { ...batchedRun, perSecond: (args.ingest / batchedRun.elapsedMs) * 1000 };
    console.log(
      `HTTP batch: ${fmt(batched.perSecond)} events/s in ${fmt(batches)} requests of up to ${args.batch}, ` +
        `p50 ${ms(batched.p50Ms)} ms per request`,
    );
    const raw = await runTimed(args.ingest, args.clients, (i) => insertRaw(event(warmup + i)));
    console.log(`raw:  ${fmt(raw.perSecond)} inserts/s, p50 ${ms(raw.p50Ms)} ms, p99 ${ms(raw.p99Ms)} ms`);
    const stored = await countRows(sql, 'gam_mastery_events');
    const rawRows = await countRows(sql, RAW_TABLE);
    if (stored !== warmup + 2 * args.ingest || rawRows !== warmup + args.ingest) {
      throw new Error(`row counts off: gam_mastery_events ${stored}, ${RAW_TABLE} ${rawRows}`);
    }
    throwIfInterrupted();

    // ------------------------------------------------------- round trips of one mastery event
    section('round trips of one mastery event (one at a time)');
    const wireEvent = (i: number) => ingestEvent('bench-wire', i, ingestStudents, ingestDays);
    const httpWire = await perCommand(wire, 'POST /api/gamification/mastery-events', 20, (i) =>
      postEvent(wireEvent(i)),
    );
    const wireStudent = ingestStudents[0]!;
    const recordWire = await perCommand(wire, 'recordMasteryEvent (in process)', 20, async (i) => {
      const e = wireEvent(1000 + i);
      const result = await recordMasteryEvent(deps, { ...e, studentId: wireStudent });
      if (result.kind !== 'recorded') throw new Error(`wire event ${i}: ${result.kind}`);
    });
    console.log(wireTable([httpWire, recordWire]));
    throwIfInterrupted();

    // ---------------------------------------------------------------- 2. projection
    section('2. gamification_ledger projection over the ingested events');
    const projection = await benchLedgerProjection(sql, api.runtime.store);
    for (const p of projection) {
      console.log(
        `${p.phase}: ${fmt(p.events)} events (${fmt(p.masteryEvents)} mastery) in ${seconds(p.elapsedMs)}, ` +
          `${fmt((p.events / p.elapsedMs) * 1000)} events/s; read models identical to the inline projection`,
      );
    }
    throwIfInterrupted();

    // ---------------------------------------------------------------- 3. leaderboard
    section(
      `3. school leaderboard: ${fmt(args.schoolStudents)} students, ${fmt(args.boardEvents)} mastery events ` +
        `over ${args.boardDays} days`,
    );
    const school = await timed(() => bulkSchool(sql, org, 'مدرسة اللوحة', args.schoolStudents, args.classSize));
    console.log(
      `school ${school.result.schoolId}: ${school.result.classIds.length} classes of up to ${args.classSize}, ` +
        `${fmt(args.schoolStudents)} students (bulk insert) in ${seconds(school.elapsedMs)}`,
    );
    const boardScope = {
      schoolId: school.result.schoolId,
      organizationId: org.id,
      students: args.schoolStudents,
    };
    const seeded = await timed(() =>
      seedBoardEvents(sql, boardScope, args.boardEvents, args.boardDays, (done) => {
        if (done < args.boardEvents) console.log(`  ${fmt(done)} / ${fmt(args.boardEvents)} rows`);
      }),
    );
    const [table] = await sql<{ n: number; size: string }[]>`
      select count(*)::int as n, pg_size_pretty(pg_total_relation_size('gam_mastery_events')) as size
      from gam_mastery_events`;
    console.log(
      `inserted ${fmt(args.boardEvents)} rows (generate_series), VACUUM ANALYZE, in ${seconds(seeded.elapsedMs)}; ` +
        `gam_mastery_events: ${fmt(table!.n)} rows, ${table!.size} with indexes`,
    );
    token = await login(api.baseUrl, org.adminEmail, BENCH_PASSWORD);
    const boards: BoardTiming[] = [];
    const rawBoards: Array<{ p50Ms: number; p95Ms: number }> = [];
    for (const windowDays of BOARD_WINDOWS) {
      const expected = await expectedWindowTotal(sql, boardScope.schoolId, org.id, windowDays);
      const timing = await timeSchoolBoard(api.baseUrl, token, boardScope, windowDays, args.boardRuns, expected);
      boards.push(timing);
      const rawBoard = await timeRawCountBoard(sql, boardScope, windowDays, args.boardRuns);
      rawBoards.push(rawBoard);
      console.log(
        `windowDays=${windowDays}: p50 ${ms(timing.p50Ms)} ms, p95 ${ms(timing.p95Ms)} ms, max ${ms(timing.maxMs)} ms ` +
          `(${fmt(timing.entries)} entries, ${fmt(timing.windowEvents)} events in the window, ` +
          `${fmt(timing.responseBytes / 1024)} KiB JSON); baseline, the raw count in SQL: ` +
          `p50 ${ms(rawBoard.p50Ms)} ms, p95 ${ms(rawBoard.p95Ms)} ms`,
      );
    }
    throwIfInterrupted();

    // ---------------------------------------------------------------- 4. replay
    section(`4. replay of one student with ${fmt(args.replayEvents)} mastery events`);
    const rawOne = await runTimed(args.replayEvents, 1, (i) =>
      insertRaw(ingestEvent('bench-raw1', i, ingestStudents, ingestDays)),
    );
    const replayDays = recentSchoolDays(replayDaysNeeded(args.replayEvents), org.timeZone);
    const seed = await seedReplayStudent(deps, replayStudent!, args.replayEvents, replayDays, (done) => {
      if (done < args.replayEvents && done % 1000 === 0) console.log(`  ${fmt(done)} / ${fmt(args.replayEvents)}`);
    });
    console.log(
      `student ${replayStudent}: ${fmt(args.replayEvents)} events through recordMasteryEvent (in process, one ` +
        `at a time) in ${seconds(seed.elapsedMs)} (${fmt((args.replayEvents / seed.elapsedMs) * 1000)} events/s); ` +
        `${fmt(seed.xpCredited)} XP, ${seed.badges} badges`,
    );
    // What bounds that loop: the same loop for two fresh students with the same history shape, durable and
    // then without waiting for the WAL flush (evidence only; see asyncCommit.ts).
    const asyncEvents = Math.min(1000, args.replayEvents);
    const durableShort = await seedReplayStudent(deps, ingestStudents.at(-2)!, asyncEvents, replayDays, () => {});
    const durableRate = (asyncEvents / durableShort.elapsedMs) * 1000;
    const asyncRecord = await recordWithoutCommitFlush(db.url, ingestStudents.at(-1)!, asyncEvents, replayDays);
    console.log(
      `${fmt(asyncEvents)} events, one student: ${fmt(durableRate)} events/s durable, ` +
        `${fmt(asyncRecord.perSecond)} events/s with synchronous_commit=off (evidence only)`,
    );
    const replay = await timeReplay(deps, replayStudent!, args.replayRuns, {
      events: args.replayEvents,
      xp: seed.xpCredited,
    });
    console.log(
      `replayReport: p50 ${ms(replay.p50Ms)} ms (min ${ms(replay.minMs)}, max ${ms(replay.maxMs)}, ${replay.runs} runs); ` +
        `hasDrift=${replay.report.hasDrift}, derived ${JSON.stringify(replay.report.derived)}`,
    );

    console.log(`baseline, raw single-row INSERT from one writer: ${fmt(rawOne.perSecond)} inserts/s`);

    // ---------------------------------------------------------------- 5. profile
    section('5. GET gamification profile vs bare fastify');
    const profiles = await timeProfile(api.baseUrl, token, ingestStudents, args.ingest, args.clients);
    console.log(
      `profile: ${fmt(profiles.profile.perSecond)} requests/s, p50 ${ms(profiles.profile.p50Ms)} ms; ` +
        `bare fastify: ${fmt(profiles.bare.perSecond)} requests/s, p50 ${ms(profiles.bare.p50Ms)} ms`,
    );

    printResults(args, { http, batched, raw, sockets, projection, boards, replay });
    console.log(`\ntotal run time ${seconds(Date.now() - started)}`);
    const seedRate = (args.replayEvents / seed.elapsedMs) * 1000;
    const [readOnly, catchUpRun, rebuildRun] = projection;
    const rate = (p: ProjectionTiming) => (p.events / p.elapsedMs) * 1000;
    const figures: Record<string, BenchFigure> = {
      httpIngest: figure(http.perSecond, 'events/s', raw.perSecond, '>= 0.30x raw INSERT'),
      httpBatchIngest: figure(batched.perSecond, 'events/s', raw.perSecond, '>= 1.0x raw INSERT'),
      inProcessRecord: figure(seedRate, 'events/s', rawOne.perSecond, '>= 1000 events/s'),
      inProcessRecordNoCommitFlush: figure(
        asyncRecord.perSecond,
        'events/s',
        durableRate,
        'evidence: synchronous_commit=off, against the durable loop',
      ),
      projectionCatchUp: figure(rate(catchUpRun!), 'events/s', rate(readOnly!), '>= 30000 events/s'),
      projectionRebuild: figure(rate(rebuildRun!), 'events/s', rate(readOnly!), '>= 30000 events/s'),
      ...Object.fromEntries(
        boards.map((b, i) => [
          `schoolBoardP95Window${b.windowDays}`,
          figure(b.p95Ms, 'ms', rawBoards[i]!.p95Ms, 'p95 < 25 ms'),
        ]),
      ),
      replay: figure(replay.p50Ms, 'ms', null, `< 50 ms for ${fmt(args.replayEvents)} events`),
      profile: figure(profiles.profile.perSecond, 'requests/s', profiles.bare.perSecond, '>= 0.15x bare fastify'),
      ...wireFigures('httpMasteryEvent', httpWire),
      ...wireFigures('masteryEvent', recordWire),
    };
    printBenchJson(NAME, figures);
    return;
  } finally {
    await cleanUp();
  }
}

const figure = (value: number, unit: string, baseline: number | null, goal: string): BenchFigure => ({
  value: Number(value.toFixed(2)),
  unit,
  baseline: baseline === null ? null : Number(baseline.toFixed(2)),
  ratio: baseline === null || baseline === 0 ? null : Number((value / baseline).toFixed(3)),
  goal,
});

function printResults(
  args: ReturnType<typeof readArgs>,
  r: {
    http: LatencyStats;
    batched: LatencyStats;
    raw: LatencyStats;
    sockets: number;
    projection: ProjectionTiming[];
    boards: BoardTiming[];
    replay: ReplayTiming;
  },
): void {
  section('results');
  const ratio = (a: number, b: number) => `${fmt(a / b, 2)}x`;
  const rows: string[][] = [
    [
      `HTTP ingest POST mastery-events, ${args.clients} clients`,
      fmt(r.http.perSecond),
      ms(r.http.p50Ms),
      ms(r.http.p95Ms),
      ms(r.http.p99Ms),
      `${fmt(r.http.ops)} events, ${fmt(args.students)} students, ${r.sockets} keep-alive sockets`,
    ],
    [
      `HTTP batch POST mastery-events/batch, ${args.clients} clients`,
      fmt(r.batched.perSecond),
      ms(r.batched.p50Ms),
      ms(r.batched.p95Ms),
      ms(r.batched.p99Ms),
      `${fmt(args.ingest)} events in requests of ${args.batch} (latency per request)`,
    ],
    [
      `raw single-row INSERT, ${args.clients} writers`,
      fmt(r.raw.perSecond),
      ms(r.raw.p50Ms),
      ms(r.raw.p95Ms),
      ms(r.raw.p99Ms),
      `${fmt(r.raw.ops)} rows, like gam_mastery_events including defaults`,
    ],
    [
      'HTTP ingest / raw INSERT',
      ratio(r.http.perSecond, r.raw.perSecond),
      ratio(r.http.p50Ms, r.raw.p50Ms),
      ratio(r.http.p95Ms, r.raw.p95Ms),
      ratio(r.http.p99Ms, r.raw.p99Ms),
      'same run, same events',
    ],
    ['HTTP batch / raw INSERT', ratio(r.batched.perSecond, r.raw.perSecond), '', '', '', 'per event'],
    ...r.projection.map((p) => [
      `projection ${p.phase.startsWith('catchUp') ? 'catch-up (cold)' : p.phase.startsWith('rebuild') ? 'rebuild' : 'readAll only (baseline)'}`,
      fmt((p.events / p.elapsedMs) * 1000),
      '',
      '',
      '',
      `${fmt(p.events)} events (${fmt(p.masteryEvents)} mastery) in ${seconds(p.elapsedMs)}`,
    ]),
    ...r.boards.map((b) => [
      `GET school leaderboard, windowDays=${b.windowDays}`,
      '',
      ms(b.p50Ms),
      ms(b.p95Ms),
      '',
      `${fmt(b.entries)} students, ${fmt(args.boardEvents)} events in table, ${fmt(b.windowEvents)} in window, ${b.runs} runs`,
    ]),
    [
      'replayReport, one student',
      '',
      ms(r.replay.p50Ms),
      '',
      '',
      `${fmt(args.replayEvents)} events, ${r.replay.runs} runs, hasDrift=${r.replay.report.hasDrift}`,
    ],
  ];
  // formatTable right-aligns every column after the first: pad the last (text) column to the left instead.
  const width = Math.max(...rows.map((row) => row[5]!.length));
  const padded = rows.map((row) => [...row.slice(0, 5), row[5]!.padEnd(width)]);
  console.log(formatTable(['benchmark', 'events/s', 'p50 ms', 'p95 ms', 'p99 ms', 'detail'.padEnd(width)], padded));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`${NAME} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
