import type { AnySql } from '@qiraa/db';
import { deterministicEventId } from '@qiraa/eventstore';

export type Celebration =
  | { id: string; kind: 'avatar_tier'; tier: number; at: string }
  | { id: string; kind: 'streak_milestone'; days: number; at: string };

const KINDS = { avatar_tier_advanced: 'avatar_tier', streak_milestone: 'streak_milestone' } as const;

/**
 * A celebration's id: one per (student, kind, tier or days), whatever notices the events left (a milestone
 * reached again after a broken streak, a replay, a rebuild of the notices all map to the same id).
 */
export const celebrationIdOf = (studentId: number, kind: Celebration['kind'], value: number) =>
  deterministicEventId('celebration', studentId, kind, value);

/**
 * The student's celebrations from the notices the ledger appended (`gam_notices`): per (kind, value) the
 * first notice's time, each with its id and whether the child acknowledged it (`gam_celebration_acks`, not
 * a projection: a rebuild keeps the acknowledgements). Ordered by time.
 */
export async function celebrationsOf(
  sql: AnySql,
  studentId: number,
): Promise<Array<Celebration & { acknowledged: boolean }>> {
  const [notices, acks] = await Promise.all([
    sql<{ kind: keyof typeof KINDS; value: number; at: Date }[]>`
      select kind, value, min(created_at) as at from gam_notices where student_id = ${studentId}
      group by kind, value order by min(created_at), kind, value`,
    sql<{ celebration_id: string }[]>`select celebration_id from gam_celebration_acks where student_id = ${studentId}`,
  ]);
  const acked = new Set(acks.map((a) => a.celebration_id));
  return notices.map((n) => {
    const kind = KINDS[n.kind];
    const id = celebrationIdOf(studentId, kind, n.value);
    const at = new Date(n.at).toISOString();
    const base =
      kind === 'avatar_tier' ? ({ id, kind, tier: n.value, at } as const) : ({ id, kind, days: n.value, at } as const);
    return { ...base, acknowledged: acked.has(id) };
  });
}

/** The pending ones, as the student's own profile carries them. */
export async function pendingCelebrations(sql: AnySql, studentId: number): Promise<Celebration[]> {
  return (await celebrationsOf(sql, studentId)).filter((c) => !c.acknowledged).map(({ acknowledged: _, ...c }) => c);
}

/**
 * Acknowledges one of the student's celebrations: `not_found` when the student has none of that id. Repeating
 * it is harmless and answers the first acknowledgement's time.
 */
export async function acknowledgeCelebration(
  sql: AnySql,
  studentId: number,
  celebrationId: string,
  now: Date,
): Promise<{ kind: 'acknowledged'; celebration: Celebration; acknowledgedAt: string } | { kind: 'not_found' }> {
  const found = (await celebrationsOf(sql, studentId)).find((c) => c.id === celebrationId);
  if (!found) return { kind: 'not_found' };
  const [row] = await sql<{ acknowledged_at: Date }[]>`
    with ins as (
      insert into gam_celebration_acks (celebration_id, student_id, acknowledged_at)
      values (${celebrationId}, ${studentId}, ${now}) on conflict do nothing returning acknowledged_at
    )
    select acknowledged_at from ins
    union all
    select acknowledged_at from gam_celebration_acks where celebration_id = ${celebrationId}
    limit 1`;
  const { acknowledged: _, ...celebration } = found;
  return { kind: 'acknowledged', celebration, acknowledgedAt: new Date(row!.acknowledged_at).toISOString() };
}
