import type { AnySql } from '@qiraa/db';
import { type EventStore, eventsAs, readStreamThrough } from '@qiraa/eventstore';
import type { PriorStatus } from '../engine/masteryRules';
import {
  BAND_PROGRESSION_DECIDED,
  type BandProgressionDecided,
  type DecisionEvent,
  SKILL_STATUS_DECIDED,
  type SkillStatusDecided,
  streams,
} from '../events';
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
  /** The decisions that earned a mastery event (its engine event id is the decision's id). */
  credited: CreditedDecision[];
}

/** A decision that earned a mastery event, with the evidence a void may take out from under it. */
export type CreditedDecision =
  | { kind: 'status'; decisionId: string; key: string; to: StatusToken; evidenceEventIds: string[] }
  | { kind: 'band'; decisionId: string; readAttemptId: string; previousAttemptId: string };

export const keyOf = (d: { academicYear: string; window: string; subSkillId: string }) =>
  `${d.academicYear}|${d.window}|${d.subSkillId}`;

/** The keys of a decision's data the fold reads (`readStreamWithin`'s `dataKeys`), and their types. */
const PRIOR_KEYS = [
  'academicYear',
  'window',
  'subSkillId',
  'status',
  'mastery',
  'evidenceEventIds',
  'readAttemptId',
  'previousAttemptId',
] as const;
type PriorEvent =
  | {
      type: typeof SKILL_STATUS_DECIDED;
      data: Pick<
        SkillStatusDecided,
        'academicYear' | 'window' | 'subSkillId' | 'status' | 'mastery' | 'evidenceEventIds'
      >;
    }
  | { type: typeof BAND_PROGRESSION_DECIDED; data: Pick<BandProgressionDecided, 'readAttemptId' | 'previousAttemptId'> }
  | {
      type: Exclude<DecisionEvent['type'], typeof SKILL_STATUS_DECIDED | typeof BAND_PROGRESSION_DECIDED>;
      data: unknown;
    };

/**
 * Reads `decision-<studentId>` through the given connection (the recompute's own transaction on the
 * PostgreSQL store, so a retry after a conflict sees the winner's events), through the port otherwise.
 */
export async function decisionStreamOf(
  sql: AnySql,
  store: EventStore,
  studentId: number,
): Promise<DecisionStreamState> {
  // Only the keys the fold reads: a decision's evidence summary is most of its data.
  const rows = eventsAs<PriorEvent>(
    await readStreamThrough(store, sql, streams.decision(studentId), { dataKeys: PRIOR_KEYS }),
  );
  const state: DecisionStreamState = { version: 0n, ids: new Set(), latest: new Map(), statuses: [], credited: [] };
  for (const r of rows) {
    state.version = r.streamVersion;
    state.ids.add(r.eventId);
    if (r.type === BAND_PROGRESSION_DECIDED && r.data.readAttemptId && r.data.previousAttemptId) {
      const { readAttemptId, previousAttemptId } = r.data;
      state.credited.push({ kind: 'band', decisionId: r.eventId, readAttemptId, previousAttemptId });
    }
    if (r.type !== SKILL_STATUS_DECIDED) continue;
    state.latest.set(keyOf(r.data), r.eventId);
    if (r.data.mastery?.to) {
      const evidenceEventIds = r.data.evidenceEventIds ?? [];
      state.credited.push({
        kind: 'status',
        decisionId: r.eventId,
        key: keyOf(r.data),
        to: r.data.mastery.to,
        evidenceEventIds,
      });
    }
    const { academicYear, window, subSkillId, status } = r.data;
    state.statuses.push({ academicYear, window, subSkillId, status: status ?? null });
  }
  return state;
}
