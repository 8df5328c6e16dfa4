import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inTransaction, MIGRATIONS_DIR } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import type { RecordedEvent } from '@qiraa/eventstore';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '../codes';
import { gamificationEvents, MASTERY_EVENT_RECORDED, type MasteryEventRecorded } from '../events';
import { type LeaderboardEntry, sortEntries, toEntry } from '../queries/leaderboardEntries';
import { rosterLeaderboard } from '../queries/rosterLeaderboard';
import { gamificationLedgerProjection } from './ledgerProjection';

const ORG = 'org_rollupAAAAAA';
let db: TestDatabase;
let today: string;
let nextStudent = 1_000_000;
let serial = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`insert into organizations (id, name, slug, country, default_locale) values (${ORG}, 'م', 'rollup', 'JO', 'ar-JO')`;
  const [row] = await db.sql<{ d: string }[]>`
    select (now() at time zone time_zone)::date::text as d from organizations where id = ${ORG}`;
  today = row!.d;
});
afterAll(() => db.drop());

const dayBefore = (offset: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - offset * 86_400_000).toISOString().slice(0, 10);

function masteryEvent(studentId: number, daysAgo: number, sourceKind: MasteryEventSourceKind): RecordedEvent {
  const data: MasteryEventRecorded = {
    masteryEventId: randomUUID(),
    studentId,
    organizationId: ORG,
    sourceKind,
    skillId: null,
    measureCode: null,
    schoolDay: dayBefore(daysAgo),
    sessionId: 's',
    engineEventId: `rollup-${serial++}`,
    occurredAt: new Date().toISOString(),
    ruleVersion: 1,
  };
  return {
    eventId: randomUUID(),
    streamId: `mastery-${studentId}`,
    streamVersion: 1n,
    type: MASTERY_EVENT_RECORDED,
    schemaVersion: 1,
    data,
    metadata: {},
    createdAt: new Date(),
    position: '0:0',
  };
}

/** The board counted straight from the mastery rows, as before the rollup existed. */
async function countedBoard(students: number[], windowDays: number): Promise<LeaderboardEntry[]> {
  const rows = await db.sql<({ student_id: bigint; total: number } & Record<MasteryEventSourceKind, number>)[]>`
    select s.student_id, count(e.id)::int as total,
      ${db.sql.unsafe(MASTERY_EVENT_SOURCE_KINDS.map((k) => `count(e.id) filter (where e.source_kind = '${k}')::int as ${k}`).join(', '))}
    from unnest(${db.sql.array(students)}::bigint[]) as s(student_id)
    left join gam_mastery_events e on e.student_id = s.student_id
      and e.school_day between ${today}::date - ${windowDays - 1}::int and ${today}::date
    group by s.student_id`;
  return sortEntries(
    rows.map((r) => toEntry(r.student_id, r)),
    'by_mastery_events',
  );
}

const arbitraryEvent = fc.record({
  student: fc.integer({ min: 0, max: 3 }),
  // Up to 120 days back (past every window) and a few days ahead (after today: never counted).
  daysAgo: fc.integer({ min: -3, max: 120 }),
  kind: fc.constantFrom(...MASTERY_EVENT_SOURCE_KINDS),
});

describe('per-day cumulative rollup (real PostgreSQL)', () => {
  it('answers any window exactly like a count over the raw mastery rows, for any batching and re-delivery', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbitraryEvent, { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        async (raw, batchSizes, windows, replayAt) => {
          const students = [0, 1, 2, 3].map(() => nextStudent++);
          const events = raw.map((r) => masteryEvent(students[r.student]!, r.daysAgo, r.kind));
          // Cut the events into batches (days arrive out of order across and within batches); one batch
          // is delivered twice, as the runner does after the inline path.
          const batches: RecordedEvent[][] = [];
          for (let at = 0, i = 0; at < events.length; i++) {
            const size = batchSizes[i % batchSizes.length]!;
            batches.push(events.slice(at, at + size));
            at += size;
          }
          batches.push(batches[replayAt % batches.length]!);
          for (const batch of batches) {
            await inTransaction(db.sql, ({ sql: tx }) =>
              gamificationLedgerProjection.applyBatch({ sql: tx, table: (name) => name }, gamificationEvents(batch)),
            );
          }
          const roster = db.sql`select unnest(${db.sql.array(students)}::bigint[]) as student_id`;
          for (const windowDays of windows) {
            const board = await rosterLeaderboard(
              db.sql,
              ORG,
              roster,
              { view: 'by_mastery_events', windowDays },
              new Date(),
            );
            expect(board).toEqual(await countedBoard(students, windowDays));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('migration 0013', () => {
  it('fills the rollup from the stored mastery rows exactly as the projection builds it', async () => {
    const students = [0, 1, 2].map(() => nextStudent++);
    const events = Array.from({ length: 60 }, (_, i) =>
      masteryEvent(students[i % 3]!, (i * 37) % 50, MASTERY_EVENT_SOURCE_KINDS[(i * 5) % 8]!),
    );
    for (let at = 0; at < events.length; at += 7) {
      await inTransaction(db.sql, ({ sql: tx }) =>
        gamificationLedgerProjection.applyBatch(
          { sql: tx, table: (name) => name },
          gamificationEvents(events.slice(at, at + 7)),
        ),
      );
    }
    const rollup = () => db.sql`
      select * from gam_mastery_day_counts where student_id = any(${db.sql.array(students)}::bigint[])
      order by student_id, school_day`;
    const projected = await rollup();
    expect(projected.length).toBeGreaterThan(3);
    await inTransaction(db.sql, async ({ sql: tx }) => {
      await tx`drop table gam_mastery_day_counts`;
      await tx.unsafe(readFileSync(`${MIGRATIONS_DIR}/0013_gamification_day_rollup.sql`, 'utf8'));
    });
    expect(await rollup()).toEqual(projected);
  });
});
