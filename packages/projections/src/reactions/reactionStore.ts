import { type AnySql, inTransaction, type Sql } from '@qiraa/db';
import type { Checkpoint, RecordedEvent } from '@qiraa/eventstore';

/** The reaction's checkpoint, its row created at the log's start the first time it is seen. */
export async function loadReactionCheckpoint(sql: AnySql, name: string): Promise<Checkpoint | null> {
  await sql`insert into reaction_checkpoints (name) values (${name}) on conflict do nothing`;
  const [row] = await sql<{ checkpoint: string | null }[]>`
    select checkpoint from reaction_checkpoints where name = ${name}`;
  return row?.checkpoint ?? null;
}

/**
 * Moves the checkpoint from `from` to `to` (compare-and-set) and, in the same transaction, parks the event
 * when it failed. False when another consumer moved it meanwhile: the caller stops and reads again.
 */
export async function advanceReaction(
  sql: Sql,
  name: string,
  from: Checkpoint | null,
  to: Checkpoint | null,
  handled: number,
  parked?: { event: RecordedEvent; error: string; attempts: number },
): Promise<boolean> {
  const move = (q: AnySql) => q`
    update reaction_checkpoints
    set checkpoint = ${to}, events_handled = events_handled + ${handled}, updated_at = now()
    where name = ${name} and checkpoint is not distinct from ${from}`;
  if (!parked) return (await move(sql)).count === 1;
  const { event, error, attempts } = parked;
  return inTransaction(sql, async ({ sql: tx }) => {
    const moved = await move(tx);
    if (moved.count !== 1) return false;
    await tx`
      insert into reaction_parked (reaction, event_id, event_type, stream_id, stream_version, position, error, attempts)
      values (${name}, ${event.eventId}, ${event.type}, ${event.streamId}, ${event.streamVersion.toString()},
              ${event.position}, ${error}, ${attempts})
      on conflict (reaction, event_id) do update
        set error = excluded.error, attempts = reaction_parked.attempts + excluded.attempts,
            last_failed_at = now(), resolved_at = null`;
    return true;
  });
}

export interface ParkedEvent {
  reaction: string;
  eventId: string;
  eventType: string;
  streamId: string;
  streamVersion: bigint;
  position: string;
  error: string;
  attempts: number;
  parkedAt: Date;
  lastFailedAt: Date;
}

interface ParkedRow {
  reaction: string;
  event_id: string;
  event_type: string;
  stream_id: string;
  stream_version: bigint;
  position: string;
  error: string;
  attempts: number;
  parked_at: Date;
  last_failed_at: Date;
}

const toParked = (r: ParkedRow): ParkedEvent => ({
  reaction: r.reaction,
  eventId: r.event_id,
  eventType: r.event_type,
  streamId: r.stream_id,
  streamVersion: BigInt(r.stream_version),
  position: r.position,
  error: r.error,
  attempts: r.attempts,
  parkedAt: r.parked_at,
  lastFailedAt: r.last_failed_at,
});

/** Parked events not yet re-driven, oldest first; of one reaction and optionally one event. */
export async function listParked(
  sql: AnySql,
  filter: { reaction?: string; eventId?: string } = {},
): Promise<ParkedEvent[]> {
  const rows = await sql<ParkedRow[]>`
    select reaction, event_id::text, event_type, stream_id, stream_version, position, error, attempts, parked_at,
           last_failed_at
    from reaction_parked
    where resolved_at is null
      and (${filter.reaction ?? null}::text is null or reaction = ${filter.reaction ?? null})
      and (${filter.eventId ?? null}::uuid is null or event_id = ${filter.eventId ?? null}::uuid)
    order by parked_at, event_id`;
  return rows.map(toParked);
}

/** Open parked events per reaction (reactions with none are absent). */
export async function parkedCounts(sql: AnySql): Promise<Map<string, number>> {
  const rows = await sql<{ reaction: string; parked: number }[]>`
    select reaction, count(*)::int as parked from reaction_parked where resolved_at is null group by reaction`;
  return new Map(rows.map((r) => [r.reaction, r.parked]));
}

export async function resolveParked(sql: AnySql, reaction: string, eventId: string): Promise<void> {
  await sql`
    update reaction_parked set resolved_at = now()
    where reaction = ${reaction} and event_id = ${eventId} and resolved_at is null`;
}

export async function failedAgain(
  sql: AnySql,
  reaction: string,
  eventId: string,
  error: string,
  attempts: number,
): Promise<void> {
  await sql`
    update reaction_parked set error = ${error}, attempts = attempts + ${attempts}, last_failed_at = now()
    where reaction = ${reaction} and event_id = ${eventId}`;
}

export async function readReactionCheckpoints(
  sql: AnySql,
): Promise<Map<string, { checkpoint: string | null; eventsHandled: number; updatedAt: Date }>> {
  const rows = await sql<{ name: string; checkpoint: string | null; events_handled: bigint; updated_at: Date }[]>`
    select name, checkpoint, events_handled, updated_at from reaction_checkpoints`;
  return new Map(
    rows.map((r) => [
      r.name,
      { checkpoint: r.checkpoint, eventsHandled: Number(r.events_handled), updatedAt: r.updated_at },
    ]),
  );
}
