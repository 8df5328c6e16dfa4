import { createHash } from 'node:crypto';
import type { Sql } from '@qiraa/db';
import type { ProbeEvent } from './workload';

/**
 * es_events' columns, types, defaults, checks and indexes (`like ... including all` copies no foreign key
 * and no trigger), with a sequence of its own for global_position.
 */
export async function createRawTable(sql: Sql): Promise<void> {
  await sql`create sequence bench_raw_position as bigint`;
  await sql`create table bench_raw_events (like es_events including all)`;
  await sql`alter table bench_raw_events alter column global_position set default nextval('bench_raw_position')`;
}

/** Per-stream versions handed out before each insert, so concurrent writers never collide on the key. */
export function rawInserter(sql: Sql) {
  const versions = new Map<string, bigint>();
  return async (event: ProbeEvent) => {
    const version = (versions.get(event.streamId) ?? 0n) + 1n;
    versions.set(event.streamId, version);
    const data = JSON.stringify(event.data);
    // es_events.hash is not null since migration 0044: the row carries a sha256 as the store's rows do.
    const hash = createHash('sha256').update(data).digest();
    await sql`
      insert into bench_raw_events (stream_id, stream_version, event_id, event_type, schema_version, data, metadata, hash)
      values (${event.streamId}, ${version}, ${event.eventId}::uuid, ${event.type}, 1,
              ${data}::jsonb, ${JSON.stringify(event.metadata)}::jsonb, ${hash})`;
  };
}

/** Checks that both tables hold what the run wrote, so the rates compare like with like. */
export async function countRows(sql: Sql, type: string): Promise<{ store: number; raw: number }> {
  const [row] = await sql<{ store: number; raw: number }[]>`
    select (select count(*) from es_events where event_type = ${type})::int as store,
           (select count(*) from bench_raw_events)::int as raw`;
  return row!;
}
