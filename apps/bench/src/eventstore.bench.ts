import { connect, enableWriteCombiner, migrateOrThrow } from '@qiraa/db';
import { postgresEventStore } from '@qiraa/eventstore';
import { loadConfig } from '@qiraa/runtime';
import { readArgs } from './args';
import { benchProjection, seedAuditEvents } from './catchUpBench';
import { type Contender, compareWriters } from './compareWriters';
import { acquireDatabase } from './database';
import { emmettPeer } from './emmettPeer';
import { machineFacts } from './facts';
import { type BenchFigure, printBenchJson } from './jsonLine';
import { type RunStats, timed } from './measure';
import { countRows, createRawTable, rawInserter } from './rawBaseline';
import { figure, fmt, formatTable, section } from './report';
import { PROBE_EVENT_TYPE, probeEvent } from './workload';

const WARMUP = 200;

async function main(): Promise<void> {
  const args = readArgs();
  const started = Date.now();
  // One cleanup, shared by the normal end, a failure and Ctrl-C, so the database is always dropped first.
  let interrupted = false;
  let release: (() => Promise<void>) | null = null;
  let closePeer = async () => {};
  let figures: Record<string, BenchFigure> = {};
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
    await closePeer().catch(() => {});
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
    // WRITE_COMBINE_MS=2 npm run bench:eventstore: the store's appends share commits (writeCombiner.ts).
    const combine = loadConfig().writeCombine;
    if (combine) enableWriteCombiner(sql, combine);
    console.log(`event store appends: ${combine ? `combined (${JSON.stringify(combine)})` : 'one commit each'}`);
    const peer = emmettPeer(db.url, args.writers + 2);
    closePeer = () => peer.close();
    const insertRaw = rawInserter(sql);
    const contenders: Contender[] = [
      {
        name: 'event store',
        op: async (e) => {
          const result = await store.append(e.streamId, [e], { expected: 'any', combine: combine !== null });
          if (result.kind !== 'appended') throw new Error(`append ${e.eventId}: ${result.kind}`);
        },
      },
      { name: 'raw insert', op: insertRaw },
      { name: 'emmett', op: (e) => peer.append(e) },
    ];

    section(
      `appends: ${fmt(args.appends)} single-event appends each, ${args.writers} writers, ${args.streams} streams, ` +
        `${args.rounds} rounds in rotating order`,
    );
    const warmup = Math.min(WARMUP, args.appends);
    const stats = await compareWriters(contenders, {
      appends: args.appends,
      warmup,
      writers: args.writers,
      rounds: args.rounds,
      event: (i) => probeEvent(i, args.streams),
      log: (line) => console.log(line),
    });
    const [storeStats, rawStats, emmettStats] = contenders.map((c) => stats.get(c.name)!) as [
      RunStats,
      RunStats,
      RunStats,
    ];
    const rows = await countRows(sql, PROBE_EVENT_TYPE);
    const emmettRows = await peer.count(PROBE_EVENT_TYPE);
    const expectedRows = warmup + args.appends;
    if (rows.store !== expectedRows || rows.raw !== expectedRows || emmettRows !== expectedRows) {
      throw new Error(
        `row counts off: es_events ${rows.store}, bench_raw_events ${rows.raw}, emt_messages ${emmettRows}`,
      );
    }

    section(`projection: ${fmt(args.catchup)} AuditRecorded events`);
    const seeded = await timed(() => seedAuditEvents(store, args.catchup));
    console.log(
      `seeded in ${fmt(seeded.elapsedMs / 1000, 2)} s (${fmt((args.catchup / seeded.elapsedMs) * 1000)} events/s)`,
    );
    const projection = await benchProjection(sql, store, args.catchup);

    section('results');
    const row = (label: string, pick: (s: RunStats) => number, digits: number) => [
      label,
      ...[storeStats, rawStats, emmettStats].map((s) => fmt(pick(s), digits)),
      fmt(pick(storeStats) / pick(rawStats), 2),
      fmt(pick(storeStats) / pick(emmettStats), 2),
    ];
    console.log(
      formatTable(
        ['single-event writes', 'event store', 'raw insert', 'emmett', 'store/raw', 'store/emmett'],
        [
          row('throughput (ops/s)', (s) => s.perSecond, 0),
          row('p50 latency (ms)', (s) => s.p50Ms, 2),
          row('p95 latency (ms)', (s) => s.p95Ms, 2),
          row('seconds', (s) => s.elapsedMs / 1000, 2),
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
    figures = {
      append_vs_raw_insert: figure(storeStats.perSecond, rawStats.perSecond, 'appends/s', '>= 0.70'),
      append_vs_emmett: figure(storeStats.perSecond, emmettStats.perSecond, 'appends/s', '>= 1.5'),
      append_p50_vs_raw_insert: figure(storeStats.p50Ms, rawStats.p50Ms, 'ms'),
      ...Object.fromEntries(
        projection.map((p) => [
          `projection_${p.phase.split(' ')[0]}`,
          figure((p.events / p.elapsedMs) * 1000, null, 'events/s'),
        ]),
      ),
    };
    console.log(`\ntotal run time ${fmt((Date.now() - started) / 1000, 1)} s`);
  } finally {
    await cleanUp();
  }
  printBenchJson('eventstore', figures);
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
