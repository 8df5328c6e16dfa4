import { writeStreams } from '@qiraa/command-kit';
import { inTransaction } from '@qiraa/db';
import { deterministicEventId } from '@qiraa/eventstore';
import { systemClock } from '@qiraa/kernel';
import { gamificationCommands } from '../commandContext';
import { BADGE_RESCINDED, type BadgeRescinded, streams, XP_REVERSED, type XpReversed } from '../events';
import type { OverrideCodeValue } from '../rules/overrideCodes';
import { type GamificationDeps, STUDENT_LOCK } from './recordMasteryEvents';

export interface RescindInput {
  studentBadgeId: number;
  /** Checked by the caller against the `gamification_rescind` scope. */
  overrideCode: OverrideCodeValue;
  actorUserId: number;
  organizationId: string;
}

export type RescindResult =
  | {
      kind: 'rescinded';
      studentBadgeId: number;
      compensatingXpTransactionId: number;
      /**
       * Minus the badge's bonus XP: negative for every badge of rule set v2 on (the bonus is paid in full);
       * 0 only for a badge rule set v1 awarded with no bonus left under the session cap (kept, so replay of
       * old events stays stable; docs/gamification.md, "Rule set v2").
       */
      reversalDelta: number;
    }
  | { kind: 'already_rescinded' }
  | { kind: 'not_found' };

/** One rescind per badge: the event id is a function of the badge alone, so the event store stores it once. */
export const rescindEventIdFor = (studentBadgeId: number) => deterministicEventId('rescind', studentBadgeId);

/**
 * Rescinds an awarded badge. One transaction appends `BadgeRescinded` to `badgerescind-<student>` and the
 * compensating `XpReversed` (kind `rescind_reversal`, minus the badge's `badge_bonus` credit) to
 * `xp-<student>` in one statement, and projects both inline (`writeStreams`). Nothing is deleted.
 *
 * Concurrency: the rescind's event id is derived from the badge id, and the event store's unique event id
 * is the arbiter. Of N parallel rescinds one appends; the others wait on the stream row, then find the
 * id taken, get `duplicate` back and roll back (409), so exactly one compensating XP row exists.
 */
export async function rescindBadge(deps: GamificationDeps, input: RescindInput): Promise<RescindResult> {
  // The clock's (a response's and the profile's time), read before the lock wait like every request's now.
  const rescindedAt = (deps.clock ?? systemClock).now().toISOString();
  return inTransaction(deps.sql, async (uow) => {
    const tx = uow.sql;
    // The student's ledger lock: a void reversing the badge's mastery event decides under it too.
    await tx`
      select pg_advisory_xact_lock(${STUDENT_LOCK}, (student_id % 2147483647)::int)
      from gam_badge_awards where id = ${input.studentBadgeId}`;
    const [badge] = await tx<
      {
        student_id: string;
        rule_version: number;
        triggering_mastery_event_id: string;
        session_id: string | null;
        rescinded: boolean;
      }[]
    >`
      select a.student_id, a.rule_version, a.triggering_mastery_event_id, m.session_id,
             exists (select 1 from gam_badge_rescinds r where r.student_badge_id = a.id) as rescinded
      from gam_badge_awards a left join gam_mastery_events m on m.id = a.triggering_mastery_event_id
      where a.id = ${input.studentBadgeId}`;
    if (!badge) return { kind: 'not_found' } as const;
    if (badge.rescinded) return { kind: 'already_rescinded' } as const;
    const studentId = Number(badge.student_id);

    const [bonus] = await tx<{ amount: number; session_id: string }[]>`
      select amount, session_id from gam_xp_ledger
      where student_badge_id = ${input.studentBadgeId} and kind = 'badge_bonus'
      order by id limit 1`;
    // The events' createdAt stays the database's (es_events); replay "as of" reads the rescind's time from it and
    // from its compensating XP row (storedAsOf), never from rescindedAt, so a shifted clock makes no drift.
    const [ids] = await tx<{ id: bigint }[]>`select nextval('gam_xp_transaction_id_seq') as id`;
    const compensatingXpTransactionId = Number(ids!.id);
    // -0 would serialise as 0 anyway; keep the ledger row a plain 0 when there was no bonus.
    const reversalDelta = bonus && bonus.amount !== 0 ? -bonus.amount : 0;

    const metadata = {
      organizationId: input.organizationId,
      actorUserId: input.actorUserId,
      causationId: badge.triggering_mastery_event_id,
    };
    const rescinded: BadgeRescinded = {
      studentBadgeId: input.studentBadgeId,
      studentId,
      overrideCode: input.overrideCode,
      actorUserId: input.actorUserId,
      compensatingXpTransactionId,
      rescindedAt,
    };
    const reversal: XpReversed = {
      xpTransactionId: compensatingXpTransactionId,
      studentId,
      masteryEventId: badge.triggering_mastery_event_id,
      kind: 'rescind_reversal',
      amount: reversalDelta,
      sessionId: bonus?.session_id ?? badge.session_id ?? '',
      ruleVersion: badge.rule_version,
      studentBadgeId: input.studentBadgeId,
    };
    const [rescind, compensation] = await writeStreams(deps.store, uow, gamificationCommands, [
      {
        streamId: streams.badgeRescinds(studentId),
        events: [
          { eventId: rescindEventIdFor(input.studentBadgeId), type: BADGE_RESCINDED, data: rescinded, metadata },
        ],
      },
      {
        streamId: streams.xp(studentId),
        events: [
          {
            eventId: deterministicEventId('xp', input.studentBadgeId, 'rescind_reversal'),
            type: XP_REVERSED,
            data: reversal,
            metadata,
          },
        ],
      },
    ]);
    // Both ids follow from the badge: another rescind of it committed first (we waited for it on the stream
    // row) and stored both, or this one stores both.
    if (rescind!.kind !== 'appended' && compensation!.kind !== 'appended')
      return { kind: 'already_rescinded' } as const;
    if (rescind!.kind !== 'appended' || compensation!.kind !== 'appended') {
      throw new Error(`rescind of badge ${input.studentBadgeId}: ${rescind!.kind}, reversal ${compensation!.kind}`);
    }
    return { kind: 'rescinded', studentBadgeId: input.studentBadgeId, compensatingXpTransactionId, reversalDelta };
  });
}
