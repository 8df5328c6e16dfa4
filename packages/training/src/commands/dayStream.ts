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
  const [row] = await sql<{ day_id: string }[]>`
    select day_id from trn_days where student_id = ${studentId} and ended_at is null`;
  return row ? loadDay(deps.store, row.day_id) : null;
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
  const result = await store.append(streams.day(dayId), events, { uow, expected });
  if (result.kind === 'conflict') throw new DayStreamMoved(`trainingday-${dayId} moved`);
  if (result.kind !== 'appended') return [];
  await applyInline(uow, daysProjection, result.events);
  return result.events;
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
