import type { AnySql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { SKILL_STATUS_DECIDED, streams } from '../events';

/** What a recompute needs of the student's decision stream: its version and the decision of every key. */
export interface DecisionStreamState {
  version: bigint;
  /** Every decision id the stream holds. */
  ids: Set<string>;
  /** The latest skill-status decision id per `academicYear|window|subSkillId`. */
  latest: Map<string, string>;
}

export const keyOf = (d: { academicYear: string; window: string; subSkillId: string }) =>
  `${d.academicYear}|${d.window}|${d.subSkillId}`;

/**
 * Reads `decision-<studentId>` through the given connection (the recompute's own transaction on the
 * PostgreSQL store, so a retry after a conflict sees the winner's events), through the port otherwise.
 */
export async function decisionStreamOf(
  sql: AnySql,
  store: EventStore,
  studentId: number,
): Promise<DecisionStreamState> {
  const streamId = streams.decision(studentId);
  let rows: { eventId: string; type: string; version: bigint; key: string }[];
  if (store.adapter === 'postgres') {
    const found = await sql<{ event_id: string; event_type: string; version: string; key: string }[]>`
      select event_id, event_type, stream_version::text as version,
             concat_ws('|', data->>'academicYear', data->>'window', data->>'subSkillId') as key
      from es_events e where stream_id = ${streamId} order by e.stream_version`;
    rows = found.map((r) => ({ eventId: r.event_id, type: r.event_type, version: BigInt(r.version), key: r.key }));
  } else {
    rows = (await store.readStream(streamId)).map((e) => ({
      eventId: e.eventId,
      type: e.type,
      version: e.streamVersion,
      key: keyOf(e.data as { academicYear: string; window: string; subSkillId: string }),
    }));
  }
  const state: DecisionStreamState = { version: 0n, ids: new Set(), latest: new Map() };
  for (const r of rows) {
    state.version = r.version;
    state.ids.add(r.eventId);
    if (r.type === SKILL_STATUS_DECIDED) state.latest.set(r.key, r.eventId);
  }
  return state;
}
