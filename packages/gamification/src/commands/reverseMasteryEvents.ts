import { writeStreams } from '@qiraa/command-kit';
import { inTransaction, type UnitOfWork } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { systemClock } from '@qiraa/kernel';
import type { MasteryEventSourceKind } from '../codes';
import { gamificationCommands } from '../commandContext';
import { badgeStillEarned, type ReversibleState, withoutMasteryEvent } from '../engine/ledgerReversal';
import {
  BADGE_RESCINDED,
  type BadgeRescinded,
  MASTERY_EVENT_REVERSED,
  type MasteryEventReversed,
  type ReversalReason,
  streams,
  XP_REVERSED,
  type XpReversed,
} from '../events';
import { CURRENT_RULE_SET } from '../rules';
import { readLedgerStates, toLedgerState } from './loadLedgerState';
import { type GamificationDeps, STUDENT_LOCK } from './recordMasteryEvents';
import { rescindEventIdFor } from './rescindBadge';

export interface ReversalInput {
  /** The engine event id the mastery event was recorded under (a decision's id). */
  engineEventId: string;
  studentId: number;
  reason: ReversalReason;
  /** The event that caused the reversal (the void's `AttemptVoided`): the entries' metadata causationId. */
  causeEventId: string;
}

export type ReversalResult =
  | { kind: 'reversed'; masteryEventId: string; xpReversed: number; rescindedBadgeCode: string | null }
  | { kind: 'already_reversed'; masteryEventId: string }
  | { kind: 'not_recorded' };

/** The dedupe key of a reversal: one per mastery event, however often the void is delivered. */
export const reversalEventIdFor = (masteryEventId: string) => deterministicEventId('mastery-reversal', masteryEventId);

interface Row {
  id: string;
  student_id: string;
  organization_id: string;
  source_kind: MasteryEventSourceKind;
  school_day: string;
  session_id: string;
  engine_event_id: string;
  reversed: boolean;
  credit: number;
  rule_version: number | null;
  others_that_day: string[];
  badge: { id: number; code: string; rule_version: number; rescinded: boolean; bonus: number | null } | null;
  holidays: string[];
}

/**
 * Reverses mastery events by append-only compensating entries: `MasteryEventReversed` (the event leaves the
 * tier count, the badge counts, the streak's days and the boards), one `XpReversed` (`void_reversal`) taking
 * back its credit, and, when its badge's rule no longer holds without it, `BadgeRescinded` with the badge's
 * bonus in the same XP row. Idempotent: the reversal's event id derives from the mastery event, and the
 * stored reversals are read under the student's lock (the lock `recordMasteryEvents` and `rescindBadge`
 * take), so a repeated or replayed call reverses nothing twice. With `{ uow }` it joins the caller's unit of
 * work; the decisions' rewards reaction calls it without one, after a void or a later decision of the child.
 */
export async function reverseMasteryEvents(
  deps: GamificationDeps,
  inputs: readonly ReversalInput[],
  options: { uow?: UnitOfWork } = {},
): Promise<ReversalResult[]> {
  if (inputs.length === 0) return [];
  // The events' reversedAt and rescindedAt: the clock's. (Replay "as of" times them by createdAt: storedAsOf.)
  const at = (deps.clock ?? systemClock).now().toISOString();
  if (options.uow) return reverseIn(deps.store, options.uow, inputs, at);
  return inTransaction(deps.sql, (uow) => reverseIn(deps.store, uow, inputs, at));
}

async function reverseIn(store: EventStore, uow: UnitOfWork, inputs: readonly ReversalInput[], at: string) {
  const tx = uow.sql;
  const studentIds = [...new Set(inputs.map((i) => i.studentId))].sort((a, b) => a - b);
  const ids = tx.array(studentIds.map(String));
  const [, rows, stateRows] = await Promise.all([
    tx`
      select pg_advisory_xact_lock(${STUDENT_LOCK}, (s.id % 2147483647)::int)
      from (select unnest(${ids}::bigint[]) as id order by 1) s`,
    tx<Row[]>`
      select m.id, m.student_id, m.organization_id, m.source_kind, m.school_day::text, m.session_id, m.engine_event_id,
        exists (select 1 from gam_mastery_reversals r where r.mastery_event_id = m.id) as reversed,
        coalesce((select sum(x.amount) from gam_xp_ledger x
                  where x.mastery_event_id = m.id and x.kind = 'mastery_credit'), 0)::int as credit,
        (select max(x.rule_version) from gam_xp_ledger x where x.mastery_event_id = m.id) as rule_version,
        array(select o.id::text from gam_mastery_events o
              where o.student_id = m.student_id and o.school_day = m.school_day and o.id <> m.id
                and not exists (select 1 from gam_mastery_reversals r where r.mastery_event_id = o.id)) as others_that_day,
        (select json_build_object('id', a.id, 'code', a.code, 'rule_version', a.rule_version,
                  'rescinded', exists (select 1 from gam_badge_rescinds r where r.student_badge_id = a.id),
                  'bonus', (select x.amount from gam_xp_ledger x where x.student_badge_id = a.id and x.kind = 'badge_bonus'))
         from gam_badge_awards a where a.triggering_mastery_event_id = m.id) as badge,
        array(select h.day::text from school_holidays h where h.organization_id = m.organization_id) as holidays
      from gam_mastery_events m
      where m.engine_event_id = any(${tx.array(inputs.map((i) => i.engineEventId))}::text[])
        and m.student_id = any(${ids}::bigint[])`,
    readLedgerStates(tx, studentIds, []),
  ]);
  const byEngineId = new Map(rows.map((r) => [r.engine_event_id, r]));
  const states = new Map<number, ReversibleState>();
  for (const row of stateRows) {
    const holidays = new Set(rows.find((r) => r.student_id === String(row.student_id))?.holidays ?? []);
    states.set(Number(row.student_id), toLedgerState(row, holidays, CURRENT_RULE_SET));
  }

  const done = new Set<string>();
  const plans: Array<{ input: ReversalInput; row: Row; rescind: boolean; amount: number }> = [];
  const results: ReversalResult[] = inputs.map((input) => {
    const row = byEngineId.get(input.engineEventId);
    if (!row || Number(row.student_id) !== input.studentId) return { kind: 'not_recorded' };
    if (row.reversed || done.has(row.id)) return { kind: 'already_reversed', masteryEventId: row.id };
    done.add(row.id);
    const studentId = input.studentId;
    const ruleVersion = row.rule_version ?? row.badge?.rule_version ?? CURRENT_RULE_SET.version;
    const dayStillLive = row.others_that_day.some((id) => !done.has(id));
    const after = withoutMasteryEvent(
      states.get(studentId)!,
      { sourceKind: row.source_kind, schoolDay: row.school_day, dayStillLive },
      new Set(row.holidays),
      ruleVersion,
    );
    states.set(studentId, after);
    const badge = row.badge;
    const rescind = !!badge && !badge.rescinded && !badgeStillEarned(badge.code, badge.rule_version, after);
    const amount = row.credit + (rescind ? (badge?.bonus ?? 0) : 0);
    plans.push({ input, row, rescind, amount });
    return {
      kind: 'reversed',
      masteryEventId: row.id,
      xpReversed: -amount,
      rescindedBadgeCode: rescind ? badge!.code : null,
    };
  });
  if (plans.length === 0) return results;

  const xpIds = await takeXpIds(uow, plans.filter((p) => p.amount !== 0).length);
  // Grouped by stream, in decision order: one statement for every stream (`writeStreams`).
  const byStream = new Map<string, NewEvent[]>();
  const write = (streamId: string, event: NewEvent) =>
    byStream.set(streamId, [...(byStream.get(streamId) ?? []), event]);
  for (const { input, row, rescind, amount } of plans) {
    const studentId = input.studentId;
    const masteryEventId = row.id;
    const metadata = {
      organizationId: row.organization_id,
      causationId: input.causeEventId,
      correlationId: masteryEventId,
    };
    const ruleVersion = row.rule_version ?? row.badge?.rule_version ?? CURRENT_RULE_SET.version;
    const reversed: MasteryEventReversed = {
      masteryEventId,
      studentId,
      sourceKind: row.source_kind,
      schoolDay: row.school_day,
      sessionId: row.session_id,
      reason: input.reason,
      causeEventId: input.causeEventId,
      reversedAt: at,
    };
    const xpTransactionId = amount !== 0 ? xpIds.shift()! : null;
    write(streams.mastery(studentId), {
      eventId: reversalEventIdFor(masteryEventId),
      type: MASTERY_EVENT_REVERSED,
      data: reversed,
      metadata,
    });
    if (xpTransactionId !== null) {
      const xp: XpReversed = {
        xpTransactionId,
        studentId,
        masteryEventId,
        kind: 'void_reversal',
        amount: -amount,
        sessionId: row.session_id,
        ruleVersion,
        studentBadgeId: rescind ? row.badge!.id : null,
        reason: input.reason,
      };
      write(streams.xp(studentId), {
        eventId: deterministicEventId('xp', masteryEventId, 'void_reversal'),
        type: XP_REVERSED,
        data: xp,
        metadata,
      });
    }
    if (rescind) {
      const rescinded: BadgeRescinded = {
        studentBadgeId: row.badge!.id,
        studentId,
        overrideCode: null,
        actorUserId: null,
        compensatingXpTransactionId: xpTransactionId,
        rescindedAt: at,
        reason: input.reason,
      };
      write(streams.badgeRescinds(studentId), {
        eventId: rescindEventIdFor(row.badge!.id),
        type: BADGE_RESCINDED,
        data: rescinded,
        metadata,
      });
    }
  }
  const writes = [...byStream].map(([streamId, events]) => ({ streamId, events }));
  const written = await writeStreams(store, uow, gamificationCommands, writes);
  // Everything was checked under the student's lock: anything else is a race to roll back.
  written.forEach((result, i) => {
    if (result.kind !== 'appended') throw new Error(`reversal append to ${writes[i]!.streamId}: ${result.kind}`);
  });
  return results;
}

async function takeXpIds(uow: UnitOfWork, n: number): Promise<number[]> {
  if (n === 0) return [];
  const [row] = await uow.sql<{ ids: bigint[] }[]>`
    select array(select nextval('gam_xp_transaction_id_seq') from generate_series(1, ${n}::int) order by 1) as ids`;
  return row!.ids.map(Number);
}
