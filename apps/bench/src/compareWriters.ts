import { performance } from 'node:perf_hooks';
import { percentile, type RunStats } from './measure';
import { fmt } from './report';
import type { ProbeEvent } from './workload';

export interface Contender {
  name: string;
  op(event: ProbeEvent): Promise<void>;
}

export interface CompareOptions {
  /** Timed operations per contender, split evenly over the rounds. */
  appends: number;
  /** Untimed operations per contender first (connections, plans, a peer's schema). */
  warmup: number;
  writers: number;
  rounds: number;
  event(i: number): ProbeEvent;
  log(line: string): void;
}

/** `writers` loops over `events`; each loop takes the next event when its previous operation finished. */
async function drive(events: readonly ProbeEvent[], writers: number, op: Contender['op'], latencies: number[]) {
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < events.length; i = next++) {
      const t0 = performance.now();
      await op(events[i]!);
      latencies.push(performance.now() - t0);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: writers }, loop));
  return performance.now() - start;
}

/**
 * Every contender writes the same events. The timed part runs in rounds, the contenders' order rotating
 * each round, so a checkpoint or an autovacuum pass lands on all of them rather than on whoever ran last.
 */
export async function compareWriters(contenders: readonly Contender[], o: CompareOptions) {
  const warm = Array.from({ length: o.warmup }, (_, i) => o.event(i));
  for (const c of contenders) await drive(warm, o.writers, c.op, []);
  const totals = new Map(contenders.map((c) => [c.name, { elapsedMs: 0, latencies: [] as number[] }]));
  let done = 0;
  for (let round = 0; round < o.rounds; round++) {
    const size = Math.floor(o.appends / o.rounds) + (round < o.appends % o.rounds ? 1 : 0);
    const events = Array.from({ length: size }, (_, i) => o.event(o.warmup + done + i));
    done += size;
    const order = contenders.map((_, k) => contenders[(k + round) % contenders.length]!);
    const line: string[] = [];
    for (const c of order) {
      const total = totals.get(c.name)!;
      const elapsedMs = await drive(events, o.writers, c.op, total.latencies);
      total.elapsedMs += elapsedMs;
      line.push(`${c.name} ${fmt((size / elapsedMs) * 1000)}/s`);
    }
    o.log(`round ${round + 1}/${o.rounds}: ${line.join(', ')}`);
  }
  const stats = new Map<string, RunStats>();
  for (const [name, { elapsedMs, latencies }] of totals) {
    latencies.sort((a, b) => a - b);
    stats.set(name, {
      ops: latencies.length,
      elapsedMs,
      perSecond: (latencies.length / elapsedMs) * 1000,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
    });
  }
  return stats;
}
