import { type AnySql, inTransaction, type Sql } from '@qiraa/db';
import type { Checkpoint, ReadAllOptions, ReadAllResult } from '../types';
import { decodeCheckpoint, encodeCheckpoint } from './checkpoint';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './eventRow';

/**
 * Reads the log in (transaction id, global position) order, taking only events of transactions older
 * than the snapshot's xmin: every such transaction has ended, so nothing can later appear before the
 * returned checkpoint. A transaction that took a low position but commits late is read after it commits.
 * With a type filter the checkpoint may move past skipped events up to the visible head, so both reads
 * run in one repeatable-read snapshot.
 */
export async function readAll(sql: Sql, options: ReadAllOptions): Promise<ReadAllResult> {
  const after = decodeCheckpoint(options.after);
  const types = options.types ? [...options.types] : null;
  return inTransaction(
    sql,
    async ({ sql: tx }): Promise<ReadAllResult> => {
      const rows = await tx<EventRow[]>`
      select ${tx.unsafe(EVENT_COLUMNS)} from es_events
      where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        and (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition})
        ${types ? tx`and event_type = any(${tx.array(types)}::text[])` : tx``}
      order by transaction_id, global_position
      limit ${options.limit}`;
      const events = rows.map(toRecordedEvent);
      if (events.length === options.limit) {
        return { events, checkpoint: events.at(-1)!.position, caughtUp: false };
      }
      const head = await visibleHead(tx);
      return { events, checkpoint: head ?? options.after ?? null, caughtUp: true, waiting: await heldBack(tx) };
    },
    // One snapshot for both reads; the log reader always waited for its connection.
    { isolation: 'repeatable read', readOnly: true, poolWait: 'unbounded' },
  );
}

/** Committed events of transactions at or above the snapshot's xmin: readable once the older ones end. */
async function heldBack(sql: AnySql): Promise<boolean> {
  const [row] = await sql<{ waiting: boolean }[]>`
    select exists (
      select 1 from es_events where transaction_id >= pg_snapshot_xmin(pg_current_snapshot())
    ) as waiting`;
  return row?.waiting === true;
}

export async function visibleHead(sql: AnySql): Promise<Checkpoint | null> {
  const [row] = await sql<{ xid_text: string; global_position: bigint }[]>`
    select transaction_id::text as xid_text, global_position from es_events
    where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
    order by transaction_id desc, global_position desc limit 1`;
  return row ? encodeCheckpoint({ transactionId: row.xid_text, globalPosition: row.global_position }) : null;
}

/**
 * Every committed event of `types` after `after`, in log order, whatever the snapshot's xmin (see
 * `EventStore.readHeldBack`). Not only those at or above this snapshot's xmin: the older transaction that held an
 * event back when the caller's last `readAll` ran may have ended since, putting the event below this xmin and
 * still after the caller's checkpoint.
 */
export async function readHeldBack(sql: AnySql, after: Checkpoint | null, types: readonly string[]) {
  const from = decodeCheckpoint(after);
  const rows = await sql<EventRow[]>`
    select ${sql.unsafe(EVENT_COLUMNS)} from es_events
    where (transaction_id, global_position) > (${from.transactionId}::xid8, ${from.globalPosition})
      and event_type = any(${sql.array([...types])}::text[])
    order by transaction_id, global_position`;
  return rows.map(toRecordedEvent);
}

/** Written-at of the oldest event after `after` of `types` that `readAll` would hand out (a lag's age). */
export async function oldestAfter(sql: AnySql, after: Checkpoint | null, types: readonly string[]) {
  const from = decodeCheckpoint(after);
  const [row] = await sql<{ created_at: Date }[]>`
    select created_at from es_events
    where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      and (transaction_id, global_position) > (${from.transactionId}::xid8, ${from.globalPosition})
      and event_type = any(${sql.array([...types])}::text[])
    order by transaction_id, global_position
    limit 1`;
  return row?.created_at ?? null;
}
