/**
 * npm run bench:combiner: the write combiner (packages/db/src/writeCombiner.ts) against the same writes one
 * transaction each, interleaved in one process so a burst of load from elsewhere lands on both. Two write
 * paths, each beside its own same-run raw single-row INSERT:
 *   - HTTP mastery ingest, one event a request (the route opts in), N clients over real sockets;
 *   - event-store single-event appends (`append(…, { combine: true })`), N writers.
 * For every phase: ops/s, p50/p95, the CPU seconds of this process (API, clients, driver) and of the
 * PostgreSQL backends serving the bench database (from /proc, user + system, so the commit flush's syscalls
 * count) per 1,000 operations, and the combiner's transactions per operation.
 *
 * Flags: --events 600 (per phase and round) --clients 8 --students 200 --rounds 4 --window 2 --max 32 --lanes 1
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { connect, disableWriteCombiner, enableWriteCombiner, type Sql } from '@qiraa/db';
import { acquireDatabase } from '../database';
import { machineFacts } from '../facts';
import { login, startApi } from '../gamification/api';
import {
  createRawMasteryTable,
  httpIngester,
  ingestEvent,
  type LatencyStats,
  rawInserter as rawMasteryInserter,
  runTimed,
} from '../gamification/ingest';
import { recentSchoolDays } from '../gamification/schoolDays';
import { BENCH_PASSWORD, createBenchOrganization, enrolledSchool } from '../gamification/tenants';
import { type BenchFigure, printBenchJson } from '../jsonLine';
import { figure, fmt, formatTable, section } from '../report';
import { probeEvent } from '../workload';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '600' },
    clients: { type: 'string', default: '8' },
    students: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '4' },
    window: { type: 'string', default: '2' },
    max: { type: 'string', default: '32' },
    lanes: { type: 'string', default: '1' },
  },
});
const args = {
  events: Number(values.events),
  clients: Number(values.clients),
  students: Number(values.students),
  rounds: Number(values.rounds),
  windowMs: Number(values.window),
  maxBatch: Number(values.max),
  lanes: Number(values.lanes),
};

const TICK = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of the PostgreSQL backends connected to `database`, by pid. */
async function backendCpu(sql: Sql, database: string): Promise<Map<number, number>> {
  const rows = await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database}`;
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) / TICK);
    } catch {
      // not on this machine, or gone
    }
  }
  return out;
}

interface Phase {
  name: string;
  combine: boolean;
  run: (offset: number) => Promise<LatencyStats>;
}

interface Totals {
  ops: number;
  ms: number;
  nodeCpu: number;
  pgCpu: number;
  units: number;
  batches: number;
  p50: number[];
  p95: number[];
}

async function main(): Promise<void> {
  const db = await acquireDatabase((line) => console.log(line));
  const cleanups: Array<() => Promise<void>> = [() => db.release()];
  const figures: Record<string, BenchFigure> = {};
  try {
    const api = await startApi(db.url);
    cleanups.push(() => api.close());
    const sql = connect(db.url, { max: args.clients + 2, applicationName: 'qiraa-bench' });
    cleanups.push(() => sql.end({ timeout: 5 }));
    section('machine');
    console.log(formatTable(['fact', 'value'], await machineFacts(sql, db), false));
    console.log(`load average before: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
    console.log(
      `combiner: window ${args.windowMs} ms, max ${args.maxBatch}, ${args.lanes} lanes; ${args.clients} clients, ${args.students} students, ` +
        `${args.events} operations a phase, ${args.rounds} rounds in rotating order`,
    );

    const org = await createBenchOrganization(sql);
    const school = await enrolledSchool(sql, org, 'مدرسة الدمج', args.students);
    const token = await login(api.baseUrl, org.adminEmail, BENCH_PASSWORD);
    const postEvent = httpIngester(api.baseUrl, token);
    await createRawMasteryTable(sql);
    const insertRawMastery = rawMasteryInserter(sql, org.id);
    const store = api.runtime.store;
    const total = args.events * args.rounds * 2 + 400;
    const days = recentSchoolDays(Math.ceil(total / args.students / 2) + 1, org.timeZone);
    let serial = 0;
    const mastery = (prefix: string) => (i: number) => ingestEvent(prefix, i, school.studentIds, days);
    const appendOne = (combine: boolean) => async (i: number) => {
      const e = probeEvent(i, 1000);
      const result = await store.append(e.streamId, [e], { expected: 'any', combine });
      if (result.kind !== 'appended') throw new Error(`append: ${result.kind}`);
    };

    const groups: Record<'ingest' | 'append', Phase[]> = {
      ingest: [
        {
          name: 'HTTP ingest, a transaction each',
          combine: false,
          run: (o) => runTimed(args.events, args.clients, (i) => postEvent(mastery('off')(o + i))),
        },
        {
          name: 'HTTP ingest, combined',
          combine: true,
          run: (o) => runTimed(args.events, args.clients, (i) => postEvent(mastery('on')(o + i))),
        },
        {
          name: 'raw INSERT (gam_mastery_events shape)',
          combine: false,
          run: (o) => runTimed(args.events, args.clients, (i) => insertRawMastery(mastery('raw')(o + i))),
        },
      ],
      append: [
        {
          name: 'append, autocommit each',
          combine: false,
          run: () => runTimed(args.events, args.clients, () => appendOne(false)(serial++)),
        },
        {
          name: 'append, combined',
          combine: true,
          run: () => runTimed(args.events, args.clients, () => appendOne(true)(serial++)),
        },
        {
          name: 'raw INSERT (append group)',
          combine: false,
          run: (o) => runTimed(args.events, args.clients, (i) => insertRawMastery(mastery('raw2')(o + i))),
        },
      ],
    };

    const totals = new Map<string, Totals>();
    const measure = async (phase: Phase, offset: number) => {
      const combiner = phase.combine ? enableWriteCombiner(api.runtime.sql, args) : null;
      if (!phase.combine) disableWriteCombiner(api.runtime.sql);
      const pgBefore = await backendCpu(sql, db.name);
      const cpuBefore = process.cpuUsage();
      const stats = await phase.run(offset);
      const cpu = process.cpuUsage(cpuBefore);
      const pgAfter = await backendCpu(sql, db.name);
      disableWriteCombiner(api.runtime.sql);
      let pg = 0;
      for (const [pid, after] of pgAfter) pg += after - (pgBefore.get(pid) ?? 0);
      const t = totals.get(phase.name) ?? {
        ops: 0,
        ms: 0,
        nodeCpu: 0,
        pgCpu: 0,
        units: 0,
        batches: 0,
        p50: [],
        p95: [],
      };
      t.ops += stats.ops;
      t.ms += stats.elapsedMs;
      t.nodeCpu += (cpu.user + cpu.system) / 1e6;
      t.pgCpu += pg;
      t.p50.push(stats.p50Ms);
      t.p95.push(stats.p95Ms);
      if (combiner) {
        const s = combiner.stats();
        t.units += s.units;
        t.batches += s.batches;
        if (s.retriedAlone || s.failedBatches) {
          console.log(`  ${phase.name}: ${s.retriedAlone} retried alone, ${s.failedBatches} failed batches`);
        }
      }
      totals.set(phase.name, t);
      console.log(
        `  ${phase.name}: ${fmt(stats.perSecond)}/s p50 ${fmt(stats.p50Ms, 1)} ms p95 ${fmt(stats.p95Ms, 1)} ms` +
          (combiner ? `, ${fmt(combiner.stats().units / Math.max(1, combiner.stats().batches), 1)} per commit` : ''),
      );
    };

    // Warm-up: every phase once, small.
    for (const phases of Object.values(groups)) {
      for (const phase of phases) {
        const saved = args.events;
        args.events = 100;
        await measure(phase, 10_000_000 + serial);
        serial += 100;
        args.events = saved;
      }
    }
    totals.clear();
    let offset = 0;
    for (let round = 0; round < args.rounds; round++) {
      section(
        `round ${round + 1} (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
      );
      for (const phases of Object.values(groups)) {
        const order = phases.map((_, k) => phases[(k + round) % phases.length]!);
        for (const phase of order) await measure(phase, offset);
      }
      offset += args.events;
    }

    section('results (sums over the rounds)');
    const rows = [...totals.entries()].map(([name, t]) => {
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      return [
        name,
        fmt((t.ops / t.ms) * 1000),
        fmt(median(t.p50), 1),
        fmt(median(t.p95), 1),
        fmt((t.nodeCpu / t.ops) * 1000, 2),
        fmt((t.pgCpu / t.ops) * 1000, 2),
        t.batches ? fmt(t.units / t.batches, 1) : '1',
      ];
    });
    console.log(
      formatTable(
        [
          'phase',
          'ops/s',
          'p50 ms (median)',
          'p95 ms (median)',
          'node CPU-s / 1k',
          'PostgreSQL CPU-s / 1k',
          'ops per commit',
        ],
        rows,
      ),
    );
    const rate = (name: string) => {
      const t = totals.get(name)!;
      return (t.ops / t.ms) * 1000;
    };
    const cpu = (name: string) => {
      const t = totals.get(name)!;
      return ((t.nodeCpu + t.pgCpu) / t.ops) * 1000;
    };
    figures.httpIngest = figure(
      rate('HTTP ingest, a transaction each'),
      rate('raw INSERT (gam_mastery_events shape)'),
      'events/s',
    );
    figures.httpIngestCombined = figure(
      rate('HTTP ingest, combined'),
      rate('raw INSERT (gam_mastery_events shape)'),
      'events/s',
      '>= 0.30x raw INSERT',
    );
    figures.httpIngestCombinedVsEach = figure(
      rate('HTTP ingest, combined'),
      rate('HTTP ingest, a transaction each'),
      'events/s',
    );
    figures.httpIngestCpuPer1k = figure(cpu('HTTP ingest, combined'), cpu('HTTP ingest, a transaction each'), 'CPU-s');
    figures.append = figure(rate('append, autocommit each'), rate('raw INSERT (append group)'), 'appends/s');
    figures.appendCombined = figure(
      rate('append, combined'),
      rate('raw INSERT (append group)'),
      'appends/s',
      '>= 0.80x',
    );
    figures.appendCombinedVsEach = figure(rate('append, combined'), rate('append, autocommit each'), 'appends/s');
    figures.appendCpuPer1k = figure(cpu('append, combined'), cpu('append, autocommit each'), 'CPU-s');
    console.log(`load average after: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  } finally {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  }
  printBenchJson('combiner', figures);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:combiner failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
