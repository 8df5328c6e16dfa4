import { setTimeout as sleep } from 'node:timers/promises';
import type { WireCounter, WireCounts } from '@qiraa/db';
import type { BenchFigure } from './jsonLine';
import { figure, fmt, formatTable } from './report';

/** Mean wire counts of one command, from commands run one at a time (nothing else on the pool's wire). */
export interface CommandWire {
  command: string;
  runs: number;
  /** Round trips from the command's first send to its answer (anything it wakes inline included). */
  roundTrips: number;
  /** The median run's round trips and the most any run took (e.g. the answer that completes a sitting). */
  medianRoundTrips: number;
  maxRoundTrips: number;
  /** Round trips in sequence (parallel ones on several connections counted once): the latency's share. */
  sequentialRoundTrips: number;
  statements: number;
  parses: number;
  /** Round trips after the answer, before the wire fell quiet: the projections and reactions it woke. */
  afterRoundTrips: number;
}

/** A command that returns it did setup only (e.g. started a sitting): its run is not counted. */
export const SETUP = Symbol('setup');

/**
 * Runs `command(i)` `runs` times one after the other, after `warmUp` runs not counted (connections open,
 * statements prepared: the steady state). Between runs it waits until the pool's wire is quiet, so the next
 * run's counts hold only its own traffic; what arrived after an answer is counted apart (`afterRoundTrips`).
 */
export async function perCommand(
  wire: WireCounter,
  name: string,
  runs: number,
  command: (i: number) => Promise<unknown>,
  warmUp = 3,
): Promise<CommandWire> {
  for (let i = 0; i < warmUp; i++) {
    await command(i);
    await quiet(wire);
  }
  const each: number[] = [];
  const sum = { roundTrips: 0, sequentialRoundTrips: 0, statements: 0, parses: 0, afterRoundTrips: 0 };
  // BENCH_WIRE_TRACE=1 prints every send of the counted runs (stderr): which statements, which round trip.
  const trace = process.env.BENCH_WIRE_TRACE === '1';
  for (let i = warmUp, counted = 0; counted < runs; i++) {
    const before = wire.snapshot();
    if (trace) {
      console.error(`-- ${name}, run ${i}`);
      wire.trace = (line) => console.error(`   ${line}`);
    }
    const outcome = await command(i);
    wire.trace = null;
    const during = wire.since(before);
    const answered = wire.snapshot();
    await quiet(wire);
    if (outcome === SETUP) continue;
    counted += 1;
    sum.roundTrips += during.roundTrips;
    each.push(during.roundTrips);
    sum.sequentialRoundTrips += during.sequentialRoundTrips;
    sum.statements += during.statements;
    sum.parses += during.parses;
    sum.afterRoundTrips += wire.since(answered).roundTrips;
  }
  return {
    command: name,
    runs,
    roundTrips: sum.roundTrips / runs,
    medianRoundTrips: each.sort((a, b) => a - b)[Math.floor((each.length - 1) / 2)]!,
    maxRoundTrips: each.at(-1)!,
    sequentialRoundTrips: sum.sequentialRoundTrips / runs,
    statements: sum.statements / runs,
    parses: sum.parses / runs,
    afterRoundTrips: sum.afterRoundTrips / runs,
  };
}

/** Waits until nothing was sent or received for 30 ms (background work the last command woke has ended). */
async function quiet(wire: WireCounter): Promise<void> {
  let last = wire.snapshot();
  for (;;) {
    await sleep(30);
    const now = wire.snapshot();
    if (now.bytesSent === last.bytesSent && now.bytesReceived === last.bytesReceived) return;
    last = now;
  }
}

/** The table the benches print. */
export function wireTable(rows: readonly CommandWire[]): string {
  return formatTable(
    [
      'command (one at a time)',
      'round trips: mean',
      'median',
      'max',
      'in sequence',
      'statements',
      'parses',
      'round trips after (woken)',
    ],
    rows.map((r) => [
      `${r.command} (${r.runs} runs)`,
      fmt(r.roundTrips, 2),
      String(r.medianRoundTrips),
      String(r.maxRoundTrips),
      fmt(r.sequentialRoundTrips, 2),
      fmt(r.statements, 2),
      fmt(r.parses, 2),
      fmt(r.afterRoundTrips, 2),
    ]),
  );
}

/** JSON figures: `<key>RoundTrips` and `<key>Statements`. */
export function wireFigures(key: string, r: CommandWire): Record<string, BenchFigure> {
  return {
    [`${key}RoundTrips`]: figure(r.roundTrips, null, 'round trips'),
    [`${key}MedianRoundTrips`]: figure(r.medianRoundTrips, null, 'round trips'),
    [`${key}SequentialRoundTrips`]: figure(r.sequentialRoundTrips, null, 'round trips'),
    [`${key}Statements`]: figure(r.statements, null, 'statements'),
  };
}

export type { WireCounts };
