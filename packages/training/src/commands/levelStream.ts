import type { AnySql, UnitOfWork } from '@qiraa/db';
import type { EventStore, NewEvent } from '@qiraa/eventstore';
import { applyInline } from '@qiraa/projections';
import { streams } from '../events';
import { levelsProjection } from '../projections/levelsProjection';

/** Thrown when the child's level stream moved under a command: the caller retries from a fresh read. */
export class LevelStreamMoved extends Error {}

/** The level stream's version, from its read model (every event of the stream lands in `trn_levels`). */
export async function levelStreamVersion(sql: AnySql, studentId: number): Promise<bigint | 'no_stream'> {
  const [row] = await sql<{ v: string | null }[]>`
    select max(stream_version)::text as v from trn_levels where student_id = ${studentId}`;
  return row?.v ? BigInt(row.v) : 'no_stream';
}

/** Appends level events with the version read, projecting them in the same transaction. */
export async function appendLevelEvents(
  store: EventStore,
  uow: UnitOfWork,
  studentId: number,
  events: readonly NewEvent[],
) {
  if (events.length === 0) return [];
  const expected = await levelStreamVersion(uow.sql, studentId);
  const result = await store.append(streams.level(studentId), events, { uow, expected });
  if (result.kind === 'conflict') throw new LevelStreamMoved(`traininglevel-${studentId} moved`);
  if (result.kind !== 'appended') return [];
  await applyInline(uow, levelsProjection, result.events);
  return result.events;
}
