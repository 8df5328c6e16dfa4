import type { AnySql } from '@qiraa/db';
import { contentHash } from '../chain/contentHash';
import { randomEventId } from '../eventId';
import { type AppendResult, type ExpectedVersion, type NewEvent, streamCategory } from '../types';
import { type AppendRow, appendResultOf } from './appendResult';

// Array type oids (text[], int4[]): without them postgres.js can send a first-use array as a bare "a,b".
const TEXT = 1009;
const INT4 = 1007;
const BYTEA = 1001;

/**
 * One call of es_append (migrations 0004, 0044): the stream row is the concurrency guard, so parallel writers
 * serialise on it and exactly one of several same-version appends wins. In a unit of work it joins the
 * caller's transaction; alone it is one autocommitted statement. Each event's content hash is computed
 * here; the function chains it to the stream's previous hash (docs/auditing.md, "Tamper evidence").
 */
export async function appendToStream(
  sql: AnySql,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<AppendResult> {
  if (events.length === 0) throw new RangeError('append needs at least one event');
  const ids = events.map((e) => e.eventId ?? randomEventId());
  const hashes = events.map((e, i) =>
    contentHash({
      eventId: ids[i]!,
      streamId,
      type: e.type,
      schemaVersion: e.schemaVersion ?? 1,
      data: e.data,
      metadata: e.metadata,
    }),
  );
  const mode = typeof expected === 'bigint' ? 'version' : expected;
  const rows = await sql<AppendRow[]>`
    select * from es_append(
      ${streamId}, ${streamCategory(streamId)}, ${mode}, ${typeof expected === 'bigint' ? expected : null},
      ${sql.array(ids, TEXT)}::uuid[],
      ${sql.array(
        events.map((e) => e.type),
        TEXT,
      )},
      ${sql.array(
        events.map((e) => e.schemaVersion ?? 1),
        INT4,
      )},
      ${sql.array(
        events.map((e) => JSON.stringify(e.data ?? null)),
        TEXT,
      )}::jsonb[],
      ${sql.array(
        events.map((e) => JSON.stringify(e.metadata ?? {})),
        TEXT,
      )}::jsonb[],
      ${sql.array(hashes, BYTEA)}::bytea[])`;
  return appendResultOf(streamId, events, ids, rows, expected);
}
