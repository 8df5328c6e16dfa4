import { performance } from 'node:perf_hooks';
import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { MASTERY_EVENT_SOURCE_KINDS, type ReplayReport, recordMasteryEvent, replayReport } from '@qiraa/gamification';
import { percentile, timed } from '../measure';
import { throwIfInterrupted } from './interruption';

const EVENTS_PER_DAY = 20;
const EVENTS_PER_SESSION = 4;

/**
 * `count` mastery events for one student through the in-process command, one at a time in day order
 * (20 per school day, a new session every 4 events so the per-session XP cap leaves XP to credit).
 */
export async function seedReplayStudent(
  deps: { sql: Sql; store: EventStore },
  studentId: number,
  count: number,
  days: readonly string[],
  onProgress: (done: number) => void,
): Promise<{ elapsedMs: number; xpCredited: number; badges: number }> {
  let xpCredited = 0;
  let badges = 0;
  const { elapsedMs } = await timed(async () => {
    for (let k = 0; k < count; k++) {
      throwIfInterrupted();
      const schoolDay = days[Math.floor(k / EVENTS_PER_DAY)]!;
      const minute = String((k % EVENTS_PER_DAY) * 2).padStart(2, '0');
      const result = await recordMasteryEvent(deps, {
        engineEventId: `bench-replay-${studentId}-${k}`,
        studentId,
        sourceKind: MASTERY_EVENT_SOURCE_KINDS[(k * 3 + Math.floor(k / 7)) % MASTERY_EVENT_SOURCE_KINDS.length]!,
        skillId: `skill-${k % 29}`,
        schoolDay,
        occurredAt: `${schoolDay}T07:${minute}:00.000Z`,
        sessionId: `bench-replay-${studentId}-${Math.floor(k / EVENTS_PER_SESSION)}`,
      });
      if (result.kind !== 'recorded') throw new Error(`replay seed event ${k}: ${result.kind}`);
      xpCredited += result.xpCredited;
      if (result.badgeCode) badges += 1;
      if ((k + 1) % 500 === 0 || k + 1 === count) onProgress(k + 1);
    }
  });
  return { elapsedMs, xpCredited, badges };
}

export const replayDaysNeeded = (count: number) => Math.ceil(count / EVENTS_PER_DAY);

export interface ReplayTiming {
  runs: number;
  p50Ms: number;
  minMs: number;
  maxMs: number;
  report: ReplayReport;
}

/** replayReport(student, now) `runs` times after one untimed run; every run must find no drift. */
export async function timeReplay(
  deps: { sql: Sql; store: EventStore },
  studentId: number,
  runs: number,
  expected: { events: number; xp: number },
): Promise<ReplayTiming> {
  const asOf = new Date();
  const check = (report: ReplayReport) => {
    if (report.hasDrift) throw new Error(`replay found drift: ${JSON.stringify(report)}`);
    if (report.derived.xpBalance !== expected.xp) {
      throw new Error(`replay derived ${report.derived.xpBalance} XP, the command credited ${expected.xp}`);
    }
  };
  check(await replayReport(deps, studentId, asOf));
  const latencies: number[] = [];
  let report: ReplayReport | undefined;
  for (let i = 0; i < runs; i++) {
    throwIfInterrupted();
    const t0 = performance.now();
    report = await replayReport(deps, studentId, asOf);
    latencies.push(performance.now() - t0);
    check(report);
  }
  latencies.sort((a, b) => a - b);
  const [row] = await deps.sql<{ n: number }[]>`
    select count(*)::int as n from gam_mastery_events where student_id = ${studentId}`;
  if (row!.n !== expected.events) throw new Error(`student has ${row!.n} mastery events, expected ${expected.events}`);
  return {
    runs,
    p50Ms: percentile(latencies, 50),
    minMs: latencies[0]!,
    maxMs: latencies[latencies.length - 1]!,
    report: report!,
  };
}
