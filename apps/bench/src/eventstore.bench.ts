import { connect, migrateOrThrow } from '@qiraa/db';
import { postgresEventStore } from '@qiraa/eventstore';
import { readArgs } from './args';
import { benchProjection, seedAuditEvents } from './catchUpBench';
import { acquireDatabase } from './database';
import { machineFacts } from './facts';
import { type RunStats, runWriters, timed } from './measure';
import { countRows, createRawTable, rawInserter } from './rawBaseline';
import { fmt, formatTable, section } from './report';
import { PROBE_EVENT_TYPE, probeEvent } from './workload';

const WARMUP = 200;

async function main(): Promise<void> {
  const args = readArgs();
  const started = Date.now();
  // One cleanup, shared by the normal end, a failure and Ctrl-C, so the database is always dropped first.
  let interrupted = false;
  let release: (() => Promise<void>) | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanUp = () => {
    cleaning ??= release ? release() : Promise.resolve();
    return cleaning;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return; // npm and tsx relay the terminal's Ctrl-C again: handle it once, keep the listener
    interrupted = true;
    console.error(`\n${signal}: cleaning up`);
    if (release) void cleanUp().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // e.g. postgres.js writing to a socket that Ctrl-C's server shutdown closed: still drop the database.
  process.on('uncaughtException', (error) => {
    if (!interrupted) console.error(`bench:eventstore crashed: ${error.stack ?? error.message}`);
    void cleanUp().finally(() => process.exit(interrupted ? 130 : 1));
  });

  const db = await acquireDatabase((line) => console.log(line));
  const sql = connect(db.url, { max: args.writers + 2, applicationName: 'qiraa-bench' });
  release = async () => {
    await sql.end({ timeout: 5 }).catch(() => {});
    await db.release();
  };
  try {
    if (interrupted) throw new Error('interrupted');
    const applied = await migrateOrThrow(sql);
    await createRawTable(sql);
    const facts = await machineFacts(sql, db);
    section('machine');
    console.log(formatTable(['fact', 'value'], facts, false));
    console.log(`migrations: ${applied.join(', ')}`);

    const store = postgresEventStore(sql);
    const storeAppend = async (i: number) => {
      const e = probeEvent(i, args.streams);
      const result = await store.append(e.streamId, [e], { expected: 'any' });
      if (result.kind !== 'appended') throw new Error(`append ${i}: ${result.kind}`);
    };
    const insertRaw = rawInserter(sql);
    const rawInsert = (i: number) => insertRaw(probeEvent(i, args.streams));

    section(`appends: ${fmt(args.appends)} single-event appends, ${args.writers} writers, ${args.streams} streams`);
    const warmup = Math.min(WARMUP, args.appends);
    await runWriters(warmup, args.writers, storeAppend);
    await runWriters(warmup, args.writers, rawInsert);
    const storeStats = await runWriters(args.appends, args.writers, (i) => storeAppend(warmup + i));
    console.log(`store: ${fmt(storeStats.perSecond)} appends/s`);
    const rawStats = await runWriters(args.appends, args.writers, (i) => rawInsert(warmup + i));
    console.log(`raw:   ${fmt(rawStats.perSecond)} inserts/s`);
    const rows = await countRows(sql, PROBE_EVENT_TYPE);
    if (rows.store !== warmup + args.appends || rows.raw !== warmup + args.appends) {
      throw new Error(`row counts off: es_events ${rows.store}, bench_raw_events ${rows.raw}`);
    }

    section(`projection: ${fmt(args.catchup)} AuditRecorded events`);
    const seeded = await timed(() => seedAuditEvents(store, args.catchup));
    console.log(
      `seeded in ${fmt(seeded.elapsedMs / 1000, 2)} s (${fmt((args.catchup / seeded.elapsedMs) * 1000)} events/s)`,
    );
    const projection = await benchProjection(sql, store, args.catchup);

    section('results');
    const row = (label: string, pick: (s: RunStats) => string, ratio: string) => [
      label,
      pick(storeStats),
      pick(rawStats),
      ratio,
    ];
    console.log(
      formatTable(
        ['single-event writes', 'event store', 'raw insert', 'store/raw'],
        [
          row('throughput (ops/s)', (s) => fmt(s.perSecond), fmt(storeStats.perSecond / rawStats.perSecond, 2)),
          row('p50 latency (ms)', (s) => fmt(s.p50Ms, 2), fmt(storeStats.p50Ms / rawStats.p50Ms, 2)),
          row('p95 latency (ms)', (s) => fmt(s.p95Ms, 2), fmt(storeStats.p95Ms / rawStats.p95Ms, 2)),
          row('ops / elapsed (s)', (s) => `${fmt(s.ops)} / ${fmt(s.elapsedMs / 1000, 2)}`, ''),
        ],
      ),
    );
    console.log();
    console.log(
      formatTable(
        ['audit_log projection', 'events', 'seconds', 'events/s'],
        projection.map((p) => [
          p.phase,
          fmt(p.events),
          fmt(p.elapsedMs / 1000, 2),
          fmt((p.events / p.elapsedMs) * 1000),
        ]),
      ),
    );
    console.log(`\ntotal run time ${fmt((Date.now() - started) / 1000, 1)} s`);
  } finally {
    await cleanUp();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(
      `bench:eventstore failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    process.exit(1);
  },
);
