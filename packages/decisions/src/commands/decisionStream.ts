import type { AnySql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { PriorStatus } from '../engine/masteryRules';
import { SKILL_STATUS_DECIDED, type SkillStatusDecided, streams } from '../events';
import type { StatusToken } from '../rules/ruleSet';

/** What a recompute needs of the student's decision stream: its version and the decision of every key. */
export interface DecisionStreamState {
  version: bigint;
  /** Every decision id the stream holds. */
  ids: Set<string>;
  /** The latest skill-status decision id per `academicYear|window|subSkillId`. */
  latest: Map<string, string>;
  /** Every skill-status decision in stream order (what the mastery rules compare a new decision with). */
  statuses: PriorStatus[];
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
  type Prior = Pick<SkillStatusDecided, 'academicYear' | 'window' | 'subSkillId' | 'status'>;
  let rows: { eventId: string; type: string; version: bigint; data: Prior }[];
  if (store.adapter === 'postgres') {
    const found = await sql<
      {
        event_id: string;
        event_type: string;
        version: string;
        academic_year: string;
        window: Prior['window'];
        sub_skill_id: string;
        status: StatusToken | null;
      }[]
    >`
      select event_id, event_type, stream_version::text as version, data->>'academicYear' as academic_year,
             data->>'window' as window, data->>'subSkillId' as sub_skill_id, data->>'status' as status
      from es_events e where stream_id = ${streamId} order by e.stream_version`;
    rows = found.map((r) => ({
      eventId: r.event_id,
      type: r.event_type,
      version: BigInt(r.version),
      data: { academicYear: r.academic_year, window: r.window, subSkillId: r.sub_skill_id, status: r.status },
    }));
  } else {
    rows = (await store.readStream(streamId)).map((e) => ({
      eventId: e.eventId,
      type: e.type,
      version: e.streamVersion,
      data: e.data as Prior,
    }));
  }
  const state: DecisionStreamState = { version: 0n, ids: new Set(), latest: new Map(), statuses: [] };
  for (const r of rows) {
    state.version = r.version;
    state.ids.add(r.eventId);
    if (r.type !== SKILL_STATUS_DECIDED) continue;
    state.latest.set(keyOf(r.data), r.eventId);
    const { academicYear, window, subSkillId, status } = r.data;
    state.statuses.push({ academicYear, window, subSkillId, status: status ?? null });
  }
  return state;
}
