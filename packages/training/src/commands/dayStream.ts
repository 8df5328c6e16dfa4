import type { StateLoader } from '@qiraa/command-kit';
import type { AnySql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { type DayFold, evolveDay, foldDay } from '../engine/foldDay';
import { streams } from '../events';

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

/** The stream id of the child's open day as a subquery (`streams.day` in SQL), for a read inside a statement. */
export const openDayStreamIdQuery = (sql: AnySql, studentId: number) =>
  sql`select 'trainingday-' || day_id::text from trn_days where student_id = ${studentId} and ended_at is null`;

export async function loadDay(store: EventStore, dayId: string): Promise<DayFold | null> {
  return foldDay(await store.readStream(streams.day(dayId)));
}

/** What every decider of a day shares: its state is the day's fold, null before it opened. */
export const dayEvolution = {
  initialState: (): DayFold | null => null,
  evolve: evolveDay,
};

/**
 * A day command's loader: the fold its caller read already (the first attempt, no second read), the day's
 * stream after a conflict.
 */
export function dayLoader(store: EventStore, dayId: string, first: DayFold | null): StateLoader<DayFold | null> {
  return {
    name: 'the day as the caller read it, then its stream',
    inTransaction: false,
    async load(attempt) {
      const fold = attempt === 0 && first ? first : await loadDay(store, dayId);
      return { state: fold, version: fold?.version ?? 'no_stream' };
    },
  };
}

/**
 * Runs a command again from a fresh read when a parallel day opening won (the one-open-day index answers
 * 23505). Stream conflicts are `handleCommand`'s: each day and level command decides again on its own.
 */
export async function retrying<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (error) {
      const raced = (error as { code?: string })?.code === '23505';
      if (!raced || i >= attempts) throw error;
    }
  }
}
