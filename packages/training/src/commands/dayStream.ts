import type { AnySql, UnitOfWork } from '@qiraa/db';
import type { EventStore, NewEvent, RecordedEvent } from '@qiraa/eventstore';
import { applyInline } from '@qiraa/projections';
import { type DayFold, foldDay } from '../engine/foldDay';
import { streams } from '../events';
import { daysProjection } from '../projections/daysProjection';

/** Thrown when a day's stream moved under a command (a parallel answer): the caller retries from a fresh read. */
export class DayStreamMoved extends Error {}

export interface TrainingDeps {
  sql: import('@qiraa/db').Sql;
  store: EventStore;
}

/** The child's open day (at most one: a unique index), folded from its stream. */
export async function openDayOf(deps: TrainingDeps, sql: AnySql, studentId: number): Promise<DayFold | null> {
  const dayId = await openDayIdOf(sql, studentId);
  return dayId ? loadDay(deps.store, dayId) : null;
}

/** The id of the child's open day, if any. */
export async function openDayIdOf(sql: AnySql, studentId: number): Promise<string | null> {
  const [row] = await sql<{ day_id: string }[]>`
    select day_id from trn_days where student_id = ${studentId} and ended_at is null`;
  return row?.day_id ?? null;
}

export async function loadDay(store: EventStore, dayId: string): Promise<DayFold | null> {
  return foldDay(await store.readStream(streams.day(dayId)));
}

/** Appends to a day with the version folded, projecting in the same transaction. */
export async function appendDayEvents(
  store: EventStore,
  uow: UnitOfWork,
  dayId: string,
  expected: bigint | 'no_stream',
  events: readonly NewEvent[],
): Promise<RecordedEvent[]> {
  const recorded = await appendDay(store, uow, dayId, expected, events);
  if (recorded.length > 0) await applyInline(uow, daysProjection, recorded);
  return recorded;
}

/**
 * The append of `appendDayEvents` without its projection, for a command that sends the projection's
 * statements together with its own (`applyInline(uow, daysProjection, recorded)`): what was appended, none
 * when the events were already stored; a moved stream throws `DayStreamMoved`.
 */
export async function appendDay(
  store: EventStore,
  uow: UnitOfWork,
  dayId: string,
  expected: bigint | 'no_stream',
  events: readonly NewEvent[],
): Promise<RecordedEvent[]> {
  const result = await store.append(streams.day(dayId), events, { uow, expected });
  if (result.kind === 'conflict') throw new DayStreamMoved(`trainingday-${dayId} moved`);
  return result.kind === 'appended' ? result.events : [];
}

/** Runs a command again from a fresh read when a stream it appends to moved or a parallel day opening won. */
export async function retrying<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      const raced =
        error instanceof DayStreamMoved ||
        error?.constructor?.name === 'LevelStreamMoved' ||
        (error as { code?: string })?.code === '23505';
      if (!raced || i >= attempts) throw error;
    }
  }
}
