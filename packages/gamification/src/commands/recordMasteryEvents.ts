import { type StreamWrite, writeStreams } from '@qiraa/command-kit';
import { inTransaction, type Sql, type TransactionSql, type UnitOfWork } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent } from '@qiraa/eventstore';
import { studentsWithTimeZoneQuery } from '@qiraa/identity';
import { type Clock, systemClock } from '@qiraa/kernel';
import type { MasteryEventSourceKind } from '../codes';
import { gamificationCommands } from '../commandContext';
import { type Decision, decide, evolve } from '../engine/decideMasteryEvent';
import type { LedgerState } from '../engine/ledgerState';
import { schoolDayOf } from '../engine/schoolDay';
import {
  AVATAR_TIER_ADVANCED,
  BADGE_AWARDED,
  type BadgeAwarded,
  MASTERY_EVENT_RECORDED,
  type MasteryEventRecorded,
  STREAK_MILESTONE_REACHED,
  streams,
  XP_CREDITED,
  type XpCredited,
} from '../events';
import { CURRENT_RULE_SET, type RuleSet } from '../rules';
import { readLedgerStates, toLedgerState } from './loadLedgerState';

export interface MasteryEventInput {
  /** The decision engine's own id: a re-sent event is stored once. */
  engineEventId: string;
  /**
   * The event that earned it (a decision's event id): the mastery event's metadata `causationId`. Absent (an
   * engine posting over HTTP), the mastery event is its own cause.
   */
  causationEventId?: string;
  studentId: number;
  sourceKind: MasteryEventSourceKind;
  skillId?: string | null;
  measureCode?: string | null;
  /** YYYY-MM-DD; derived from occurredAt in the organization's time zone when absent. */
  schoolDay?: string;
  occurredAt: string;
  sessionId: string;
}

export type RecordResult =
  | {
      kind: 'recorded';
      masteryEventId: string;
      xpCredited: number;
      badgeCode: string | null;
      avatarTier: number | null;
      streakMilestone: number | null;
    }
  | { kind: 'duplicate'; masteryEventId: string }
  | { kind: 'unknown_student' };

export interface RecordOptions {
  rules?: RuleSet;
  /** The caller's organization: a student of another one is `unknown_student` (404). Absent: any. */
  organizationId?: string | null;
  /**
   * Join this unit of work instead of opening one (a caller whose own write must commit with the credit). No
   * per-event retry then: a failure rolls the caller's whole unit of work back. (The decisions context no longer
   * does: its rewards reaction calls without one, one decision event at a time.)
   */
  uow?: UnitOfWork;
  /**
   * With `uow`: the caller sends nothing after this call in that unit of work (the ingest route's transaction
   * is this call alone), so its COMMIT goes out with the last statements, as when the call opens its own.
   */
  last?: boolean;
}

/**
 * What the gamification commands need. `clock`: the runtime's one clock (`ContextDeps.clock`, a reaction's
 * runner carries it too); the wall clock only for a caller that has none (a test, a tool).
 */
export interface GamificationDeps {
  sql: Sql;
  store: EventStore;
  clock?: Clock;
}

/** Most events one call takes (the batch ingest route's documented maximum). */
export const MAX_MASTERY_BATCH = 500;

// Decisions about one student run one at a time: each builds on the previous one's XP and badges.
export const STUDENT_LOCK = 727_172_201;

export const masteryEventIdFor = (engineEventId: string) => deterministicEventId('mastery', engineEventId);

interface StudentRow {
  id: bigint;
  organization_id: string;
  time_zone: string;
  holidays: string[];
}

/** One student's share of the batch: the streams' new events, in decision order. */
interface StudentWrites {
  mastery: NewEvent[];
  badges: NewEvent[];
  xp: NewEvent[];
  notices: NewEvent[];
}

interface Decided {
  index: number;
  input: MasteryEventInput;
  masteryEventId: string;
  organizationId: string;
  schoolDay: string;
  decision: Decision;
}

/**
 * The in-process command the assessment and training engines call, and the HTTP ingest routes wrap: any
 * number of mastery events (up to MAX_MASTERY_BATCH), one result per event in input order. One transaction
 * and a fixed number of round trips whatever the batch holds: the students are locked (in id order, so two
 * batches never deadlock) and their state, organizations, holidays and the already stored engine ids are
 * read in one pipelined exchange; the decisions are folded in memory with the current rule set; the ids
 * are taken in one statement; then, in one more exchange (the command kit's `writeStreams`, pipelined), every
 * stream of every student is appended in one statement (`EventStore.appendMany`) and the read models are
 * written inline by the projection's multi-row `applyBatch`. Plus BEGIN and COMMIT. See docs/gamification.md, "Round trips per call".
 *
 * All or nothing per event: should the shared transaction fail (another request racing for an engine id
 * under another student), each event is retried alone in its own transaction.
 */
export async function recordMasteryEvents(
  deps: GamificationDeps,
  inputs: readonly MasteryEventInput[],
  options: RecordOptions = {},
): Promise<RecordResult[]> {
  if (inputs.length === 0) return [];
  if (inputs.length > MAX_MASTERY_BATCH) throw new RangeError(`at most ${MAX_MASTERY_BATCH} events per batch`);
  // A badge's awardedAt (what the profile answers) is the clock's, read once for the whole batch.
  const now = (deps.clock ?? systemClock).now();
  if (options.uow) return recordInTransaction(deps.store, options.uow, inputs, options, options.last === true, now);
  try {
    return await inTransaction(deps.sql, (uow) => recordInTransaction(deps.store, uow, inputs, options, true, now));
  } catch (error) {
    if (inputs.length === 1) throw error;
    const results: RecordResult[] = [];
    for (const input of inputs) results.push(...(await recordMasteryEvents(deps, [input], options)));
    return results;
  }
}

async function recordInTransaction(
  store: EventStore,
  uow: UnitOfWork,
  inputs: readonly MasteryEventInput[],
  options: RecordOptions,
  /** The transaction is this call's own: COMMIT may go out with its last statements. */
  owned: boolean,
  now: Date,
): Promise<RecordResult[]> {
  const tx = uow.sql;
  const rules = options.rules ?? CURRENT_RULE_SET;
  const studentIds = [...new Set(inputs.map((i) => i.studentId))].sort((a, b) => a - b);
  const engineIds = inputs.map((i) => i.engineEventId);

  // Pipelined: sent together and run in this order, so the reads after the lock see every earlier decision.
  const ids = tx.array(studentIds.map(String));
  const [[clock], , studentRows, storedIds, stateRows] = await Promise.all([
    // The transaction's clock: every event this transaction appends gets it as its createdAt (es_events'
    // `default now()`), so the inline projection's `recorded_at` equals what a rebuild reads. Bookkeeping of the
    // log, not a domain stamp: it stays on the database's clock (docs/architecture.md, "One clock"). With it, the
    // ids a batch usually needs (one XP transaction an event, one more and a badge id for one badge): a
    // batch that earns more takes the rest later (takeIds). Ids not used are a gap, as a rollback leaves.
    tx<{ now: Date; xp: bigint[]; badge: bigint[] }[]>`
      select now(),
        array(select nextval('gam_xp_transaction_id_seq') from generate_series(1, ${inputs.length + 1}::int) order by 1) as xp,
        array(select nextval('gam_student_badge_id_seq') from generate_series(1, 1) order by 1) as badge`,
    tx`
      select pg_advisory_xact_lock(${STUDENT_LOCK}, (s.id % 2147483647)::int)
      from (select unnest(${ids}::bigint[]) as id order by 1) s`,
    tx<StudentRow[]>`
      select u.id, u.organization_id, u.time_zone,
        array(select h.day::text from school_holidays h where h.organization_id = u.organization_id) as holidays
      from (${studentsWithTimeZoneQuery(tx, ids)}) u`,
    tx<{ engine_event_id: string }[]>`
      select engine_event_id from gam_mastery_events where engine_event_id = any(${tx.array(engineIds)}::text[])`,
    readLedgerStates(tx, studentIds, [...new Set(inputs.map((i) => i.sessionId))]),
  ]);
  const students = new Map(
    studentRows
      .filter((s) => options.organizationId == null || s.organization_id === options.organizationId)
      .map((s) => [Number(s.id), { ...s, holidays: new Set(s.holidays) }]),
  );
  const states = new Map<number, LedgerState>();
  for (const row of stateRows) {
    const student = students.get(Number(row.student_id));
    if (student) states.set(Number(row.student_id), toLedgerState(row, student.holidays, rules));
  }

  const seen = new Set(storedIds.map((r) => r.engine_event_id));
  const results: RecordResult[] = new Array(inputs.length);
  const decided: Decided[] = [];
  inputs.forEach((input, index) => {
    const student = students.get(input.studentId);
    const masteryEventId = masteryEventIdFor(input.engineEventId);
    if (!student) {
      results[index] = { kind: 'unknown_student' };
      return;
    }
    if (seen.has(input.engineEventId)) {
      results[index] = { kind: 'duplicate', masteryEventId };
      return;
    }
    seen.add(input.engineEventId);
    const state = states.get(input.studentId) as LedgerState;
    const schoolDay = input.schoolDay ?? schoolDayOf(input.occurredAt, student.time_zone);
    const mastery = { masteryEventId, sourceKind: input.sourceKind, schoolDay, sessionId: input.sessionId };
    const decision = decide(state, mastery, rules, student.holidays);
    states.set(input.studentId, evolve(state, mastery, decision));
    decided.push({ index, input, masteryEventId, organizationId: student.organization_id, schoolDay, decision });
  });
  if (decided.length === 0) return results;

  const taken = await takeIds(tx, decided, { xp: clock!.xp.map(Number), badge: clock!.badge.map(Number) });
  const writes = new Map<number, StudentWrites>();
  for (const d of decided) {
    const w = writes.get(d.input.studentId) ?? { mastery: [], badges: [], xp: [], notices: [] };
    writes.set(d.input.studentId, w);
    eventsOf(d, taken, w, now);
    results[d.index] = {
      kind: 'recorded',
      masteryEventId: d.masteryEventId,
      xpCredited: d.decision.xpCredit + d.decision.badgeBonus,
      badgeCode: d.decision.badge?.code ?? null,
      avatarTier: d.decision.tierAdvancedTo,
      streakMilestone: d.decision.streakMilestone,
    };
  }

  const appends: StreamWrite[] = [];
  for (const [studentId, w] of writes) {
    appends.push({ streamId: streams.mastery(studentId), events: w.mastery });
    appends.push({ streamId: streams.badgeAwards(studentId), events: w.badges });
    appends.push({ streamId: streams.xp(studentId), events: w.xp });
    appends.push({ streamId: streams.notices(studentId), events: w.notices });
  }
  // The ledger was decided under the students' locks, so every stream is appended with version `any`, in one
  // statement, with the projection's statements (they read only ids, data and createdAt, all known before the
  // append) and, when the transaction is this call's own, COMMIT behind them: one exchange (`pipelined`).
  const written = await writeStreams(store, uow, gamificationCommands, appends, {
    pipelined: true,
    last: owned,
    recordedAt: clock!.now,
  });
  // The engine ids were checked under the students' locks: anything but `appended` is a race to roll back.
  written.forEach((result, i) => {
    if (result.kind !== 'appended' && appends[i]!.events.length > 0) {
      throw new Error(`append to ${appends[i]!.streamId}: ${result.kind}`);
    }
  });
  return results;
}

/** Every XP transaction id and badge id the batch needs, from their sequences in one statement. */
async function takeIds(
  tx: TransactionSql,
  decided: readonly Decided[],
  taken: { xp: number[]; badge: number[] },
): Promise<{ xp: number[]; badge: number[] }> {
  let xp = 0;
  let badge = 0;
  for (const { decision } of decided) {
    if (decision.xpCredit > 0) xp++;
    if (decision.badge) {
      badge++;
      if (decision.badgeBonus > 0) xp++;
    }
  }
  // Taken with the first reads, in ascending order; what is missing comes after them, higher still.
  xp -= taken.xp.length;
  badge -= taken.badge.length;
  if (xp <= 0 && badge <= 0) return taken;
  const [row] = await tx<{ xp: bigint[]; badge: bigint[] }[]>`
    select
      array(select nextval('gam_xp_transaction_id_seq') from generate_series(1, ${Math.max(0, xp)}::int) order by 1) as xp,
      array(select nextval('gam_student_badge_id_seq') from generate_series(1, ${Math.max(0, badge)}::int) order by 1) as badge`;
  return { xp: [...taken.xp, ...row!.xp.map(Number)], badge: [...taken.badge, ...row!.badge.map(Number)] };
}

/** The events one decision appends, added to its student's streams; ids are taken from the front of `ids`. */
function eventsOf(d: Decided, ids: { xp: number[]; badge: number[] }, w: StudentWrites, now: Date): void {
  const { input, masteryEventId, decision } = d;
  const studentId = input.studentId;
  // XP, badges and notices are caused by the mastery event; the mastery event by what earned it.
  const metadata = { organizationId: d.organizationId, causationId: masteryEventId, correlationId: input.sessionId };
  // The mastery event was caused by what the engine decided: the decision's event when the decisions context
  // derived it (its reaction names it), the engine's own id when ingested. What it earns is caused by it.
  const masteryMetadata = { ...metadata, causationId: input.causationEventId ?? input.engineEventId };
  const recorded: MasteryEventRecorded = {
    masteryEventId,
    studentId,
    organizationId: d.organizationId,
    sourceKind: input.sourceKind,
    skillId: input.skillId ?? null,
    measureCode: input.measureCode ?? null,
    schoolDay: d.schoolDay,
    sessionId: input.sessionId,
    engineEventId: input.engineEventId,
    occurredAt: new Date(input.occurredAt).toISOString(),
    ruleVersion: decision.ruleVersion,
  };
  w.mastery.push({ eventId: masteryEventId, type: MASTERY_EVENT_RECORDED, data: recorded, metadata: masteryMetadata });

  const credit = (kind: XpCredited['kind'], amount: number, studentBadgeId: number | null) => {
    const data: XpCredited = {
      xpTransactionId: ids.xp.shift()!,
      studentId,
      masteryEventId,
      kind,
      amount,
      sessionId: input.sessionId,
      ruleVersion: decision.ruleVersion,
      studentBadgeId,
    };
    w.xp.push({ eventId: deterministicEventId('xp', masteryEventId, kind), type: XP_CREDITED, data, metadata });
  };
  if (decision.xpCredit > 0) credit('mastery_credit', decision.xpCredit, null);
  if (decision.badge) {
    const award: BadgeAwarded = {
      studentBadgeId: ids.badge.shift()!,
      studentId,
      code: decision.badge.code,
      triggeringMasteryEventId: masteryEventId,
      ruleVersion: decision.ruleVersion,
      awardedAt: now.toISOString(),
    };
    w.badges.push({
      eventId: deterministicEventId('badge', studentId, award.code),
      type: BADGE_AWARDED,
      data: award,
      metadata,
    });
    if (decision.badgeBonus > 0) credit('badge_bonus', decision.badgeBonus, award.studentBadgeId);
  }
  if (decision.tierAdvancedTo) {
    w.notices.push({
      // Once per (student, tier), whatever happens to the events that led there.
      eventId: deterministicEventId('tier', studentId, decision.tierAdvancedTo),
      type: AVATAR_TIER_ADVANCED,
      data: { studentId, masteryEventId, value: decision.tierAdvancedTo },
      metadata,
    });
  }
  if (decision.streakMilestone) {
    w.notices.push({
      eventId: deterministicEventId('streak', masteryEventId),
      type: STREAK_MILESTONE_REACHED,
      data: { studentId, masteryEventId, value: decision.streakMilestone },
      metadata,
    });
  }
}
