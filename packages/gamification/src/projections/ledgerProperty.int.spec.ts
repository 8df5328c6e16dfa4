import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { postgresEventStore } from '@qiraa/eventstore';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTERY_EVENT_SOURCE_KINDS } from '../codes';
import { recordMasteryEvent } from '../commands/recordMasteryEvent';
import { gamificationProfile } from '../queries/profile';
import { replayReport } from '../replay';
import { CURRENT_RULE_SET } from '../rules';

let db: TestDatabase;
let run = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.sql`insert into organizations (id, name, slug, country, default_locale) values ('org_propAAAAAAAA', 'م', 'prop', 'JO', 'ar-JO')`;
  await db.sql`insert into school_holidays (organization_id, day) values ('org_propAAAAAAAA', '2026-09-08')`;
});
afterAll(() => db.drop());

const arbitraryEvent = fc.record({
  engine: fc.integer({ min: 0, max: 25 }),
  sourceKind: fc.constantFrom(...MASTERY_EVENT_SOURCE_KINDS),
  day: fc.integer({ min: 0, max: 30 }),
  session: fc.integer({ min: 0, max: 2 }),
});

describe('ledger property (real PostgreSQL)', () => {
  it('for any delivery (duplicates, out-of-order days), the projected profile equals the replay fold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryEvent, { minLength: 1, maxLength: 30 }), async (deliveries) => {
        const [student] = await db.sql<{ id: bigint }[]>`
          insert into users (full_name_ar, primary_persona, organization_id) values ('طالب', 'STUDENT', 'org_propAAAAAAAA') returning id`;
        const studentId = Number(student!.id);
        const store = postgresEventStore(db.sql);
        const tag = run++;
        for (const d of deliveries) {
          // The same engine id re-sent later carries the same content, as an engine's retry would.
          const day = new Date(Date.UTC(2026, 8, 1 + ((d.engine * 7 + d.day) % 31))).toISOString().slice(0, 10);
          await recordMasteryEvent(
            { sql: db.sql, store },
            {
              engineEventId: `p${tag}-${d.engine}`,
              studentId,
              sourceKind: MASTERY_EVENT_SOURCE_KINDS[d.engine % 8]!,
              schoolDay: day,
              occurredAt: `${day}T08:00:00Z`,
              sessionId: `s${d.engine % 3}`,
            },
          );
        }
        const report = await replayReport({ sql: db.sql, store }, studentId, new Date());
        expect(report.hasDrift, JSON.stringify(report)).toBe(false);
        const profile = await gamificationProfile(db.sql, studentId, false);
        expect(profile.xpBalance).toBe(report.derived.xpBalance);
        expect(profile.avatarTier).toBe(report.derived.avatarTier);
        expect(profile.badges.map((b) => b.code).sort()).toEqual([...report.derived.badgeCodes].sort());

        const [checks] = await db.sql<{ over: number; orphans: number; distinct_engines: number; rows: number }[]>`
          select
            (select count(*) from (select session_id from gam_xp_ledger where student_id = ${studentId}
               and kind = 'mastery_credit' group by session_id having sum(amount) > ${CURRENT_RULE_SET.sessionXpCap}) o)::int as over,
            (select count(*) from gam_xp_ledger x where x.student_id = ${studentId} and not exists (
               select 1 from gam_mastery_events m where m.id = x.mastery_event_id))::int
             + (select count(*) from gam_badge_awards b where b.student_id = ${studentId} and not exists (
               select 1 from gam_mastery_events m where m.id = b.triggering_mastery_event_id))::int as orphans,
            (select count(distinct engine_event_id) from gam_mastery_events where student_id = ${studentId})::int as distinct_engines,
            (select count(*) from gam_mastery_events where student_id = ${studentId})::int as rows`;
        if (!checks) throw new Error('no row');
        expect(checks.over).toBe(0);
        expect(checks.orphans).toBe(0);
        expect(checks.rows).toBe(new Set(deliveries.map((d) => d.engine)).size);
        expect(checks.distinct_engines).toBe(checks.rows);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
