import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { MASTERY_EVENT_SOURCE_KINDS, recordMasteryEvent } from '@qiraa/gamification';

/** The last `count` school days (Sunday to Thursday) before `today`, oldest first. */
function recentSchoolDays(today: Date, count: number): string[] {
  const days: string[] = [];
  for (let d = new Date(today); days.length < count; d = new Date(d.getTime() - 86_400_000)) {
    const weekday = d.getUTCDay(); // 5 Friday, 6 Saturday
    if (weekday !== 5 && weekday !== 6) days.unshift(d.toISOString().slice(0, 10));
  }
  return days;
}

/**
 * A believable, deterministic history for the demo students: a few weeks of mastery events through the
 * same command the engines use, so profiles and leaderboards have something to show. Students differ in
 * how often they practise; nobody is left with nothing.
 */
export async function seedMasteryHistory(
  deps: { sql: Sql; store: EventStore },
  studentIds: readonly number[],
  today = new Date(),
): Promise<number> {
  const days = recentSchoolDays(today, 20);
  let recorded = 0;
  for (const [i, studentId] of studentIds.entries()) {
    const everyNthDay = 1 + (i % 3);
    for (const [d, day] of days.entries()) {
      if (d % everyNthDay !== 0) continue;
      const perDay = 1 + ((i + d) % 2);
      for (let k = 0; k < perDay; k++) {
        const sourceKind = MASTERY_EVENT_SOURCE_KINDS[(i + d + k) % MASTERY_EVENT_SOURCE_KINDS.length]!;
        const result = await recordMasteryEvent(deps, {
          engineEventId: `demo-${studentId}-${day}-${k}`,
          studentId,
          sourceKind,
          schoolDay: day,
          occurredAt: `${day}T07:${String(10 + k).padStart(2, '0')}:00Z`,
          sessionId: `demo-${studentId}-${day}`,
        });
        if (result.kind === 'recorded') recorded++;
      }
    }
  }
  return recorded;
}
