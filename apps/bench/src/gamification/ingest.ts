import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Sql } from '@qiraa/db';
import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '@qiraa/gamification';
import { percentile, runWriters } from '../measure';
import { call } from './api';
import { throwIfInterrupted } from './interruption';

export interface IngestEvent {
  engineEventId: string;
  studentId: number;
  sourceKind: MasteryEventSourceKind;
  skillId: string;
  schoolDay: string;
  occurredAt: string;
  sessionId: string;
}

/**
 * Event `i` of a run over `studentIds`: round-robin over the students, each student's events in day order
 * (two per school day, one session per student and day), source kinds and skills varied.
 */
export function ingestEvent(prefix: string, i: number, studentIds: readonly number[], days: readonly string[]) {
  const s = i % studentIds.length;
  const round = Math.floor(i / studentIds.length);
  const dayIndex = Math.min(days.length - 1, Math.floor(round / 2));
  const schoolDay = days[dayIndex]!;
  const minute = String((round * 7 + s) % 60).padStart(2, '0');
  return {
    engineEventId: `${prefix}-${i}`,
    studentId: studentIds[s]!,
    sourceKind: MASTERY_EVENT_SOURCE_KINDS[(i * 5 + s) % MASTERY_EVENT_SOURCE_KINDS.length]!,
    skillId: `skill-${(i * 13) % 41}`,
    schoolDay,
    occurredAt: `${schoolDay}T06:${minute}:00.000Z`,
    sessionId: `${prefix}-${studentIds[s]}-${dayIndex}`,
  } satisfies IngestEvent;
}

export interface LatencyStats {
  ops: number;
  elapsedMs: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** runWriters (n operations from `writers` loops), with every latency kept for p99 as well. */
export async function runTimed(n: number, writers: number, op: (i: number) => Promise<void>): Promise<LatencyStats> {
  const latencies: number[] = new Array(n);
  const stats = await runWriters(n, writers, async (i) => {
    throwIfInterrupted();
    const t0 = performance.now();
    await op(i);
    latencies[i] = performance.now() - t0;
  });
  latencies.sort((a, b) => a - b);
  return {
    ops: stats.ops,
    elapsedMs: stats.elapsedMs,
    perSecond: stats.perSecond,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
  };
}

interface IngestAnswer {
  outcome: 'recorded' | 'duplicate' | 'halted';
  written: boolean;
}

/** POST /api/gamification/mastery-events of one event; anything but 201 `recorded` fails the run. */
export function httpIngester(baseUrl: string, token: string) {
  return async (event: IngestEvent) => {
    const answer = await call<IngestAnswer>(baseUrl, 'POST', '/api/gamification/mastery-events', {
      token,
      body: { kind: 'mastery_event', ...event },
      expect: [201],
    });
    if (answer.outcome !== 'recorded' || !answer.written) {
      throw new Error(`ingest ${event.engineEventId}: ${JSON.stringify(answer)}`);
    }
  };
}

interface BatchAnswer {
  recorded: number;
  results: IngestAnswer[];
}

/** POST /api/gamification/mastery-events/batch of `events`; every one must come back `recorded`. */
export function httpBatchIngester(baseUrl: string, token: string) {
  return async (events: IngestEvent[]) => {
    const answer = await call<BatchAnswer>(baseUrl, 'POST', '/api/gamification/mastery-events/batch', {
      token,
      body: { events: events.map((event) => ({ kind: 'mastery_event', ...event })) },
      expect: [200],
    });
    if (answer.recorded !== events.length) {
      const refused = answer.results.find((r) => r.outcome !== 'recorded');
      throw new Error(`batch of ${events.length}: ${answer.recorded} recorded, e.g. ${JSON.stringify(refused)}`);
    }
  };
}

export const RAW_TABLE = 'bench_raw_mastery_events';

/** gam_mastery_events' columns and defaults (`like … including defaults`: no index, no check, no trigger). */
export async function createRawMasteryTable(sql: Sql): Promise<void> {
  await sql`create table ${sql(RAW_TABLE)} (like gam_mastery_events including defaults)`;
}

/** One single-row INSERT of the event into the raw table, as its own implicit transaction. */
export function rawInserter(sql: Sql, organizationId: string) {
  return async (event: IngestEvent) => {
    await sql`
      insert into ${sql(RAW_TABLE)}
        (id, student_id, organization_id, source_kind, skill_id, measure_code, school_day, session_id,
         engine_event_id, occurred_at, recorded_at)
      values (${randomUUID()}, ${event.studentId}, ${organizationId}, ${event.sourceKind}, ${event.skillId}, null,
              ${event.schoolDay}, ${event.sessionId}, ${event.engineEventId}, ${event.occurredAt}, now())`;
  };
}

export async function countRows(sql: Sql, table: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from ${sql(table)}`;
  return row!.n;
}
