import { defineProjection } from '@qiraa/projections';
import {
  AVATAR_TIER_ADVANCED,
  BADGE_AWARDED,
  BADGE_RESCINDED,
  type BadgeAwarded,
  type BadgeRescinded,
  type GamificationNotice,
  MASTERY_EVENT_RECORDED,
  type MasteryEventRecorded,
  STREAK_MILESTONE_REACHED,
  XP_CREDITED,
  XP_REVERSED,
  type XpCredited,
  type XpReversed,
} from '../events';

/**
 * The gamification read models, one row per ledger event (idempotent: replaying an event inserts nothing).
 * Applied inline by the commands (read-your-writes) and again by the runner.
 */
export const gamificationLedgerProjection = defineProjection({
  name: 'gamification_ledger',
  version: 1,
  handles: [
    MASTERY_EVENT_RECORDED,
    XP_CREDITED,
    XP_REVERSED,
    BADGE_AWARDED,
    BADGE_RESCINDED,
    AVATAR_TIER_ADVANCED,
    STREAK_MILESTONE_REACHED,
  ],
  tables: [
    'gam_mastery_events',
    'gam_student_days',
    'gam_xp_ledger',
    'gam_badge_awards',
    'gam_badge_rescinds',
    'gam_notices',
  ],
  async apply({ sql, table }, event) {
    switch (event.type) {
      case MASTERY_EVENT_RECORDED: {
        const d = event.data as MasteryEventRecorded;
        await sql`
          insert into ${sql(table('gam_mastery_events'))}
            (id, student_id, organization_id, source_kind, skill_id, measure_code, school_day, session_id,
             engine_event_id, occurred_at, recorded_at)
          values (${d.masteryEventId}, ${d.studentId}, ${d.organizationId}, ${d.sourceKind}, ${d.skillId},
                  ${d.measureCode}, ${d.schoolDay}, ${d.sessionId}, ${d.engineEventId}, ${d.occurredAt}, ${event.createdAt})
          on conflict do nothing`;
        await sql`
          insert into ${sql(table('gam_student_days'))} (student_id, school_day) values (${d.studentId}, ${d.schoolDay})
          on conflict do nothing`;
        return;
      }
      case XP_CREDITED:
      case XP_REVERSED: {
        const d = event.data as XpCredited | XpReversed;
        await sql`
          insert into ${sql(table('gam_xp_ledger'))}
            (id, event_id, student_id, mastery_event_id, kind, amount, session_id, rule_version, student_badge_id, recorded_at)
          values (${d.xpTransactionId}, ${event.eventId}, ${d.studentId}, ${d.masteryEventId}, ${d.kind}, ${d.amount},
                  ${d.sessionId}, ${d.ruleVersion}, ${d.studentBadgeId}, ${event.createdAt})
          on conflict do nothing`;
        return;
      }
      case BADGE_AWARDED: {
        const d = event.data as BadgeAwarded;
        await sql`
          insert into ${sql(table('gam_badge_awards'))}
            (id, event_id, student_id, code, triggering_mastery_event_id, rule_version, awarded_at)
          values (${d.studentBadgeId}, ${event.eventId}, ${d.studentId}, ${d.code}, ${d.triggeringMasteryEventId},
                  ${d.ruleVersion}, ${d.awardedAt})
          on conflict do nothing`;
        return;
      }
      case BADGE_RESCINDED: {
        const d = event.data as BadgeRescinded;
        await sql`
          insert into ${sql(table('gam_badge_rescinds'))}
            (student_badge_id, event_id, override_code, actor_user_id, compensating_xp_transaction_id, rescinded_at)
          values (${d.studentBadgeId}, ${event.eventId}, ${d.overrideCode}, ${d.actorUserId},
                  ${d.compensatingXpTransactionId}, ${d.rescindedAt})
          on conflict do nothing`;
        return;
      }
      case AVATAR_TIER_ADVANCED:
      case STREAK_MILESTONE_REACHED: {
        const d = event.data as GamificationNotice;
        const kind = event.type === AVATAR_TIER_ADVANCED ? 'avatar_tier_advanced' : 'streak_milestone';
        await sql`
          insert into ${sql(table('gam_notices'))} (event_id, student_id, kind, value, created_at)
          values (${event.eventId}, ${d.studentId}, ${kind}, ${d.value}, ${event.createdAt})
          on conflict do nothing`;
        return;
      }
    }
  },
});
