import { inTransaction, type Sql } from '@qiraa/db';
import { deterministicEventId, type EventStore, type NewEvent, type RecordedEvent } from '@qiraa/eventstore';
import { applyInline } from '@qiraa/projections';
import { decide } from '../domain/decide';
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
import { gamificationLedgerProjection } from '../projections/ledgerProjection';
import { CURRENT_RULE_SET, type RuleSet } from '../rules';
import type { MasteryEventSourceKind } from '../sourceKinds';
import { schoolDayOf } from '../streak';
import { loadLedgerState } from './loadLedgerState';

export interface MasteryEventInput {
  /** The decision engine's own id: a re-sent event is stored once. */
  engineEventId: string;
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

// Decisions about one student run one at a time: each builds on the previous one's XP and badges.
const STUDENT_LOCK = 727_172_201;

export const masteryEventIdFor = (engineEventId: string) => deterministicEventId('mastery', engineEventId);

/**
 * The in-process command the assessment and training engines call, and the HTTP ingest route wraps.
 * One transaction: the mastery event, what it earns (XP, a badge, a tier, a streak milestone) decided
 * by the current rule set, appended to the student's streams and projected inline.
 */
export async function recordMasteryEvent(
  deps: { sql: Sql; store: EventStore },
  input: MasteryEventInput,
  rules: RuleSet = CURRENT_RULE_SET,
): Promise<RecordResult> {
  const masteryEventId = masteryEventIdFor(input.engineEventId);
  return inTransaction(deps.sql, async (uow) => {
    const tx = uow.sql;
    const [student] = await tx<{ organization_id: string; time_zone: string }[]>`
      select u.organization_id, o.time_zone from users u join organizations o on o.id = u.organization_id
      where u.id = ${input.studentId} and u.primary_persona = 'STUDENT'`;
    if (!student) return { kind: 'unknown_student' } as const;
    await tx`select pg_advisory_xact_lock(${STUDENT_LOCK}, ${input.studentId % 2_147_483_647})`;
    const [seen] = await tx`select 1 from gam_mastery_events where engine_event_id = ${input.engineEventId}`;
    if (seen) return { kind: 'duplicate', masteryEventId } as const;

    const holidays = new Set(
      (
        await tx<
          { d: string }[]
        >`select day::text as d from school_holidays where organization_id = ${student.organization_id}`
      ).map((r) => r.d),
    );
    const state = await loadLedgerState(tx, input.studentId, holidays, rules);
    const schoolDay = input.schoolDay ?? schoolDayOf(input.occurredAt, student.time_zone);
    const decision = decide(
      state,
      { masteryEventId, sourceKind: input.sourceKind, schoolDay, sessionId: input.sessionId },
      rules,
      holidays,
    );

    const recorded: MasteryEventRecorded = {
      masteryEventId,
      studentId: input.studentId,
      organizationId: student.organization_id,
      sourceKind: input.sourceKind,
      skillId: input.skillId ?? null,
      measureCode: input.measureCode ?? null,
      schoolDay,
      sessionId: input.sessionId,
      engineEventId: input.engineEventId,
      occurredAt: new Date(input.occurredAt).toISOString(),
      ruleVersion: decision.ruleVersion,
    };
    const metadata = {
      organizationId: student.organization_id,
      causationId: masteryEventId,
      correlationId: input.sessionId,
    };
    const appended: RecordedEvent[] = [];
    const append = async (stream: string, events: NewEvent[]) => {
      if (events.length === 0) return;
      const result = await deps.store.append(stream, events, { uow });
      if (result.kind === 'appended') appended.push(...result.events);
    };
    await append(streams.mastery(input.studentId), [
      { eventId: masteryEventId, type: MASTERY_EVENT_RECORDED, data: recorded, metadata },
    ]);

    const nextId = async (sequence: 'gam_xp_transaction_id_seq' | 'gam_student_badge_id_seq') =>
      Number((await tx<{ id: bigint }[]>`select nextval(${sequence}) as id`)[0]!.id);
    const credits: NewEvent[] = [];
    const credit = async (kind: XpCredited['kind'], amount: number, studentBadgeId: number | null) => {
      const data: XpCredited = {
        xpTransactionId: await nextId('gam_xp_transaction_id_seq'),
        studentId: input.studentId,
        masteryEventId,
        kind,
        amount,
        sessionId: input.sessionId,
        ruleVersion: decision.ruleVersion,
        studentBadgeId,
      };
      credits.push({ eventId: deterministicEventId('xp', masteryEventId, kind), type: XP_CREDITED, data, metadata });
    };
    if (decision.xpCredit > 0) await credit('mastery_credit', decision.xpCredit, null);

    if (decision.badge) {
      const award: BadgeAwarded = {
        studentBadgeId: await nextId('gam_student_badge_id_seq'),
        studentId: input.studentId,
        code: decision.badge.code,
        triggeringMasteryEventId: masteryEventId,
        ruleVersion: decision.ruleVersion,
        awardedAt: new Date().toISOString(),
      };
      await append(streams.badgeAwards(input.studentId), [
        {
          eventId: deterministicEventId('badge', input.studentId, award.code),
          type: BADGE_AWARDED,
          data: award,
          metadata,
        },
      ]);
      if (decision.badgeBonus > 0) await credit('badge_bonus', decision.badgeBonus, award.studentBadgeId);
    }
    await append(streams.xp(input.studentId), credits);

    const notices: NewEvent[] = [];
    if (decision.tierAdvancedTo) {
      notices.push({
        // Once per (student, tier), whatever happens to the events that led there.
        eventId: deterministicEventId('tier', input.studentId, decision.tierAdvancedTo),
        type: AVATAR_TIER_ADVANCED,
        data: { studentId: input.studentId, masteryEventId, value: decision.tierAdvancedTo },
        metadata,
      });
    }
    if (decision.streakMilestone) {
      notices.push({
        eventId: deterministicEventId('streak', masteryEventId),
        type: STREAK_MILESTONE_REACHED,
        data: { studentId: input.studentId, masteryEventId, value: decision.streakMilestone },
        metadata,
      });
    }
    await append(streams.notices(input.studentId), notices);
    await applyInline(uow, gamificationLedgerProjection, appended);

    return {
      kind: 'recorded',
      masteryEventId,
      xpCredited: decision.xpCredit + decision.badgeBonus,
      badgeCode: decision.badge?.code ?? null,
      avatarTier: decision.tierAdvancedTo,
      streakMilestone: decision.streakMilestone,
    } as const;
  });
}
