import type { RecordedEvent } from '@qiraa/eventstore';
import { defineProjection, eventsOfType, type ProjectionContext } from '@qiraa/projections';
import { MASTERY_EVENT_SOURCE_KINDS } from '../codes';
import {
  AVATAR_TIER_ADVANCED,
  BADGE_AWARDED,
  BADGE_RESCINDED,
  type BadgeAwarded,
  type BadgeRescinded,
  type GamificationEvent,
  type GamificationNotice,
  MASTERY_EVENT_RECORDED,
  MASTERY_EVENT_REVERSED,
  type MasteryEventRecorded,
  type MasteryEventReversed,
  STREAK_MILESTONE_REACHED,
  XP_CREDITED,
  XP_REVERSED,
  type XpCredited,
  type XpReversed,
} from '../events';

/**
 * The gamification read models: one row per ledger event (idempotent: replaying an event inserts nothing),
 * plus the per-day cumulative rollup the boards read (gam_mastery_day_counts, migration 0013), which counts
 * only the mastery rows the insert really wrote. Applied inline by the commands (read-your-writes) and again
 * by the runner; a batch is at most five statements whatever its size, sent together (pipelined).
 */
export const gamificationLedgerProjection = defineProjection<GamificationEvent>({
  name: 'gamification_ledger',
  // 2: gam_mastery_day_counts joined the projection. 3: reversals (gam_mastery_reversals).
  version: 3,
  handles: [
    MASTERY_EVENT_RECORDED,
    MASTERY_EVENT_REVERSED,
    XP_CREDITED,
    XP_REVERSED,
    BADGE_AWARDED,
    BADGE_RESCINDED,
    AVATAR_TIER_ADVANCED,
    STREAK_MILESTONE_REACHED,
  ],
  tables: [
    'gam_mastery_events',
    'gam_mastery_reversals',
    'gam_student_days',
    'gam_mastery_day_counts',
    'gam_xp_ledger',
    'gam_badge_awards',
    'gam_badge_rescinds',
    'gam_notices',
  ],
  async applyBatch(ctx, events) {
    await Promise.all([
      insertMasteryEvents(ctx, eventsOfType(events, MASTERY_EVENT_RECORDED)),
      insertXp(ctx, eventsOfType(events, XP_CREDITED, XP_REVERSED)),
      insertBadgeAwards(ctx, eventsOfType(events, BADGE_AWARDED)),
      insertBadgeRescinds(ctx, eventsOfType(events, BADGE_RESCINDED)),
      insertNotices(ctx, eventsOfType(events, AVATAR_TIER_ADVANCED, STREAK_MILESTONE_REACHED)),
    ]);
    // After the mastery rows: a rebuild may bring an event and its reversal in one batch.
    await reverseMasteryEvents(ctx, eventsOfType(events, MASTERY_EVENT_REVERSED));
  },
});

const KIND_COLUMNS = MASTERY_EVENT_SOURCE_KINDS.join(', ');
const each = (template: (kind: string) => string) => MASTERY_EVENT_SOURCE_KINDS.map(template).join(', ');

/**
 * One statement: the mastery rows, their school days, and the rollup. For every student of the batch the
 * rollup rows from the batch's earliest new day on are rewritten as (the stored cumulative count on or
 * before that day) + (the batch's new rows up to that day); the statement reads the table as it was
 * before it, so a late event for an earlier day moves every later row once.
 */
async function insertMasteryEvents(
  { sql, table }: ProjectionContext,
  events: Array<RecordedEvent<MasteryEventRecorded>>,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(({ data: d, createdAt }) => ({
    id: d.masteryEventId,
    student_id: d.studentId,
    organization_id: d.organizationId,
    source_kind: d.sourceKind,
    skill_id: d.skillId,
    measure_code: d.measureCode,
    school_day: d.schoolDay,
    session_id: d.sessionId,
    engine_event_id: d.engineEventId,
    occurred_at: d.occurredAt,
    recorded_at: createdAt,
  }));
  const counts = sql(table('gam_mastery_day_counts'));
  await sql`
    with new as (
      insert into ${sql(table('gam_mastery_events'))}
        (id, student_id, organization_id, source_kind, skill_id, measure_code, school_day, session_id,
         engine_event_id, occurred_at, recorded_at)
      select r.id, r.student_id, r.organization_id, r.source_kind, r.skill_id, r.measure_code, r.school_day,
             r.session_id, r.engine_event_id, r.occurred_at, r.recorded_at
      from jsonb_to_recordset(${sql.json(rows as never)}) as r(
        id uuid, student_id bigint, organization_id text, source_kind text, skill_id text, measure_code text,
        school_day date, session_id text, engine_event_id text, occurred_at timestamptz, recorded_at timestamptz)
      on conflict do nothing
      returning student_id, school_day, source_kind
    ),
    days as (
      insert into ${sql(table('gam_student_days'))} (student_id, school_day)
      select distinct student_id, school_day from new
      on conflict do nothing
    ),
    delta as (
      select student_id, school_day, count(*)::int as total,
        ${sql.unsafe(each((k) => `count(*) filter (where source_kind = '${k}')::int as ${k}`))}
      from new group by student_id, school_day
    ),
    -- The days to rewrite: the batch's days, and the student's stored days after its earliest one.
    later as (
      select c.student_id, c.school_day, 0 as total, ${sql.unsafe(each((k) => `0 as ${k}`))}
      from ${counts} c join (select student_id, min(school_day) as d0 from delta group by student_id) f
        on f.student_id = c.student_id and c.school_day > f.d0
      where not exists (select 1 from delta d where d.student_id = c.student_id and d.school_day = c.school_day)
    ),
    -- What the batch adds on each of those days: a running sum over the student's days.
    added as (
      select student_id, school_day, sum(total) over w as total, ${sql.unsafe(each((k) => `sum(${k}) over w as ${k}`))}
      from (select * from delta union all select * from later) x
      window w as (partition by student_id order by school_day)
    )
    insert into ${counts} (student_id, school_day, total, ${sql.unsafe(KIND_COLUMNS)})
    select a.student_id, a.school_day, coalesce(b.total, 0) + a.total,
      ${sql.unsafe(each((k) => `coalesce(b.${k}, 0) + a.${k}`))}
    from added a
    left join lateral (
      select * from ${counts} c
      where c.student_id = a.student_id and c.school_day <= a.school_day
      order by c.school_day desc limit 1
    ) b on true
    on conflict (student_id, school_day) do update set
      total = excluded.total, ${sql.unsafe(each((k) => `${k} = excluded.${k}`))}`;
}

/**
 * One statement: the reversal rows, and for the reversals it really wrote the rollup rows of the student from
 * the reversed event's day on lose it (in total and in its kind), and the day leaves gam_student_days when no
 * other live mastery event of the student falls on it (the streak is folded from those days).
 */
async function reverseMasteryEvents(
  { sql, table }: ProjectionContext,
  events: Array<RecordedEvent<MasteryEventReversed>>,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(({ data: d, eventId, createdAt }) => ({
    mastery_event_id: d.masteryEventId,
    event_id: eventId,
    student_id: d.studentId,
    reason: d.reason,
    cause_event_id: d.causeEventId,
    reversed_at: createdAt,
    school_day: d.schoolDay,
    source_kind: d.sourceKind,
  }));
  const counts = sql(table('gam_mastery_day_counts'));
  const reversals = sql(table('gam_mastery_reversals'));
  const mastery = sql(table('gam_mastery_events'));
  await sql`
    with input as (
      select * from jsonb_to_recordset(${sql.json(rows as never)}) as r(
        mastery_event_id uuid, event_id uuid, student_id bigint, reason text, cause_event_id text,
        reversed_at timestamptz, school_day date, source_kind text)
    ),
    new as (
      insert into ${reversals} (mastery_event_id, event_id, student_id, reason, cause_event_id, reversed_at)
      select mastery_event_id, event_id, student_id, reason, cause_event_id, reversed_at from input
      on conflict do nothing
      returning mastery_event_id
    ),
    gone as (select i.* from input i join new n using (mastery_event_id)),
    delta as (
      select student_id, school_day, count(*)::int as total,
        ${sql.unsafe(each((k) => `count(*) filter (where source_kind = '${k}')::int as ${k}`))}
      from gone group by student_id, school_day
    ),
    less as (
      select c.student_id, c.school_day, sum(d.total)::int as total, ${sql.unsafe(each((k) => `sum(d.${k})::int as ${k}`))}
      from ${counts} c join delta d on d.student_id = c.student_id and d.school_day <= c.school_day
      group by c.student_id, c.school_day
    ),
    rolled as (
      update ${counts} c set total = c.total - l.total, ${sql.unsafe(each((k) => `${k} = c.${k} - l.${k}`))}
      from less l where c.student_id = l.student_id and c.school_day = l.school_day
    )
    delete from ${sql(table('gam_student_days'))} sd
    using (select distinct student_id, school_day from gone) g
    where sd.student_id = g.student_id and sd.school_day = g.school_day
      and not exists (
        select 1 from ${mastery} m
        where m.student_id = g.student_id and m.school_day = g.school_day
          and not exists (select 1 from gone x where x.mastery_event_id = m.id)
          and not exists (select 1 from ${reversals} r where r.mastery_event_id = m.id))`;
}

async function insertXp(
  { sql, table }: ProjectionContext,
  events: Array<RecordedEvent<XpCredited | XpReversed>>,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(({ data: d, eventId, createdAt }) => ({
    id: d.xpTransactionId,
    event_id: eventId,
    student_id: d.studentId,
    mastery_event_id: d.masteryEventId,
    kind: d.kind,
    amount: d.amount,
    session_id: d.sessionId,
    rule_version: d.ruleVersion,
    student_badge_id: d.studentBadgeId,
    recorded_at: createdAt,
  }));
  await sql`
    insert into ${sql(table('gam_xp_ledger'))}
      (id, event_id, student_id, mastery_event_id, kind, amount, session_id, rule_version, student_badge_id, recorded_at)
    select r.id, r.event_id, r.student_id, r.mastery_event_id, r.kind, r.amount, r.session_id, r.rule_version,
           r.student_badge_id, r.recorded_at
    from jsonb_to_recordset(${sql.json(rows as never)}) as r(
      id bigint, event_id uuid, student_id bigint, mastery_event_id uuid, kind text, amount int, session_id text,
      rule_version int, student_badge_id bigint, recorded_at timestamptz)
    on conflict do nothing`;
}

async function insertBadgeAwards(
  { sql, table }: ProjectionContext,
  events: Array<RecordedEvent<BadgeAwarded>>,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(({ data: d, eventId }) => ({
    id: d.studentBadgeId,
    event_id: eventId,
    student_id: d.studentId,
    code: d.code,
    triggering_mastery_event_id: d.triggeringMasteryEventId,
    rule_version: d.ruleVersion,
    awarded_at: d.awardedAt,
  }));
  await sql`
    insert into ${sql(table('gam_badge_awards'))}
      (id, event_id, student_id, code, triggering_mastery_event_id, rule_version, awarded_at)
    select r.id, r.event_id, r.student_id, r.code, r.triggering_mastery_event_id, r.rule_version, r.awarded_at
    from jsonb_to_recordset(${sql.json(rows as never)}) as r(
      id bigint, event_id uuid, student_id bigint, code text, triggering_mastery_event_id uuid, rule_version int,
      awarded_at timestamptz)
    on conflict do nothing`;
}

async function insertBadgeRescinds(
  { sql, table }: ProjectionContext,
  events: Array<RecordedEvent<BadgeRescinded>>,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(({ data: d, eventId }) => ({
    student_badge_id: d.studentBadgeId,
    event_id: eventId,
    override_code: d.overrideCode,
    actor_user_id: d.actorUserId,
    compensating_xp_transaction_id: d.compensatingXpTransactionId,
    rescinded_at: d.rescindedAt,
    reason: d.reason ?? 'override',
  }));
  await sql`
    insert into ${sql(table('gam_badge_rescinds'))}
      (student_badge_id, event_id, override_code, actor_user_id, compensating_xp_transaction_id, rescinded_at, reason)
    select r.student_badge_id, r.event_id, r.override_code, r.actor_user_id, r.compensating_xp_transaction_id,
           r.rescinded_at, r.reason
    from jsonb_to_recordset(${sql.json(rows as never)}) as r(
      student_badge_id bigint, event_id uuid, override_code text, actor_user_id bigint,
      compensating_xp_transaction_id bigint, rescinded_at timestamptz, reason text)
    on conflict do nothing`;
}

async function insertNotices(
  { sql, table }: ProjectionContext,
  events: Array<RecordedEvent<GamificationNotice>>,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(({ data: d, eventId, type, createdAt }) => ({
    event_id: eventId,
    student_id: d.studentId,
    kind: type === AVATAR_TIER_ADVANCED ? 'avatar_tier_advanced' : 'streak_milestone',
    value: d.value,
    created_at: createdAt,
  }));
  await sql`
    insert into ${sql(table('gam_notices'))} (event_id, student_id, kind, value, created_at)
    select r.event_id, r.student_id, r.kind, r.value, r.created_at
    from jsonb_to_recordset(${sql.json(rows as never)}) as r(
      event_id uuid, student_id bigint, kind text, value int, created_at timestamptz)
    on conflict do nothing`;
}
