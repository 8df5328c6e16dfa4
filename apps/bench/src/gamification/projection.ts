import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { gamificationLedgerProjection, MASTERY_EVENT_RECORDED } from '@qiraa/gamification';
import { catchUp, rebuildProjection } from '@qiraa/projections';
import { timed } from '../measure';

const projection = gamificationLedgerProjection;

export interface ProjectionTiming {
  phase: string;
  /** Events the projection applied (every type it handles). */
  events: number;
  /** Of which MasteryEventRecorded. */
  masteryEvents: number;
  elapsedMs: number;
}

/** Row count and a checksum per read-model table, to prove a catch-up or rebuild reproduced it exactly. */
async function fingerprint(sql: Sql): Promise<string> {
  const parts: string[] = [];
  for (const table of projection.tables) {
    const [row] = await sql<{ n: number; h: string | null }[]>`
      select count(*)::int as n, md5(string_agg(md5(t::text), '' order by md5(t::text))) as h from ${sql(table)} t`;
    parts.push(`${table}=${row!.n}:${row!.h ?? '-'}`);
  }
  return parts.join(' ');
}

async function deleteCheckpoint(sql: Sql): Promise<void> {
  await sql`delete from projection_checkpoints where name = ${projection.name}`;
}

/**
 * Over the events ingested so far (the projector never ran: the command projected them inline):
 * 1. cold catch-up: checkpoint row deleted and the read-model tables emptied (TRUNCATE; the append-only
 *    guards are row triggers on UPDATE/DELETE), then `catchUp` with batches of 1000;
 * 2. rebuild: checkpoint row deleted again, `rebuildProjection` into shadow tables and swap.
 * Both must reproduce the inline-projected tables row for row.
 */
export async function benchLedgerProjection(sql: Sql, store: EventStore): Promise<ProjectionTiming[]> {
  const total = await store.countAfter(null, projection.handles);
  const readOnly = await timed(async () => {
    let read = 0;
    for (let after: string | null = null; ; ) {
      const batch = await store.readAll({ after, limit: 1000, types: projection.handles });
      read += batch.events.length;
      after = batch.checkpoint;
      if (batch.caughtUp) return read;
    }
  });
  const mastery = await store.countAfter(null, [MASTERY_EVENT_RECORDED]);
  const before = await fingerprint(sql);

  await deleteCheckpoint(sql);
  await sql`truncate ${sql(projection.tables.map((t) => t))}`;
  const cold = await timed(() => catchUp({ sql, store }, projection, 1000));
  if (cold.result.kind !== 'caught_up' || cold.result.rebuilt || cold.result.applied !== total) {
    throw new Error(`cold catch-up ended ${JSON.stringify(cold.result)}, expected ${total} events applied`);
  }
  const afterCatchUp = await fingerprint(sql);
  if (afterCatchUp !== before)
    throw new Error(`catch-up did not reproduce the read models:\n${before}\n${afterCatchUp}`);

  await deleteCheckpoint(sql);
  const rebuild = await timed(() => rebuildProjection({ sql, store }, projection, { batchSize: 1000 }));
  if (rebuild.result.applied !== total) {
    throw new Error(`rebuild applied ${rebuild.result.applied} events, expected ${total}`);
  }
  const afterRebuild = await fingerprint(sql);
  if (afterRebuild !== before)
    throw new Error(`rebuild did not reproduce the read models:\n${before}\n${afterRebuild}`);

  return [
    {
      phase: 'readAll only (baseline: the same batches read, nothing applied)',
      events: readOnly.result,
      masteryEvents: mastery,
      elapsedMs: readOnly.elapsedMs,
    },
    {
      phase: 'catchUp (checkpoint deleted, tables emptied)',
      events: cold.result.applied,
      masteryEvents: mastery,
      elapsedMs: cold.elapsedMs,
    },
    {
      phase: 'rebuildProjection (checkpoint deleted)',
      events: rebuild.result.applied,
      masteryEvents: mastery,
      elapsedMs: rebuild.elapsedMs,
    },
  ];
}
