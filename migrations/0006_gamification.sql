-- Gamification read models: projections of the mastery, xp, badge-award and badge-rescind streams
-- (packages/gamification). All rebuildable from the streams; the ledgers refuse UPDATE and DELETE.

-- Every ledger decision carries the mastery event that caused it, enforced in the event store itself.
alter table es_events add constraint es_events_xp_has_mastery_event
  check (event_type not in ('XpCredited', 'XpReversed') or (data ? 'masteryEventId' and data->>'masteryEventId' is not null));
alter table es_events add constraint es_events_badge_has_mastery_event
  check (event_type <> 'BadgeAwarded' or (data ? 'triggeringMasteryEventId' and data->>'triggeringMasteryEventId' is not null));

create table gam_mastery_events (
  id               uuid primary key,
  student_id       bigint not null,
  organization_id  text not null,
  source_kind      text not null check (source_kind in ('subskill_state_up', 'cbm_trend_above_goal',
                     'bundle_step_goal_met', 'band_progression', 'skill_status_transition',
                     'domain_status_escalation', 'bundle_completion', 'scaffold_tier_step_up')),
  skill_id         text,
  measure_code     text,
  school_day       date not null,
  session_id       text not null,
  engine_event_id  text not null unique,
  occurred_at      timestamptz not null,
  recorded_at      timestamptz not null
);
create index gam_mastery_events_student_idx on gam_mastery_events (student_id, recorded_at);
create index gam_mastery_events_day_idx on gam_mastery_events (school_day, student_id);

create table gam_xp_ledger (
  id                 bigint primary key,
  event_id           uuid not null unique,
  student_id         bigint not null,
  mastery_event_id   uuid not null,
  kind               text not null check (kind in ('mastery_credit', 'badge_bonus', 'rescind_reversal')),
  amount             integer not null,
  session_id         text not null,
  rule_version       integer not null,
  student_badge_id   bigint,
  recorded_at        timestamptz not null
);
create index gam_xp_ledger_student_idx on gam_xp_ledger (student_id);
create index gam_xp_ledger_session_idx on gam_xp_ledger (student_id, session_id);

create table gam_badge_awards (
  id                           bigint primary key,
  event_id                     uuid not null unique,
  student_id                   bigint not null,
  code                         text not null,
  triggering_mastery_event_id  uuid not null,
  rule_version                 integer not null,
  awarded_at                   timestamptz not null,
  unique (student_id, code)
);

create table gam_badge_rescinds (
  student_badge_id                bigint primary key,
  event_id                        uuid not null unique,
  override_code                   text not null,
  actor_user_id                   bigint not null,
  compensating_xp_transaction_id  bigint not null,
  rescinded_at                    timestamptz not null
);

-- Per student and school day: the streak is folded from these days, so delivery order never matters.
create table gam_student_days (
  student_id  bigint not null,
  school_day  date not null,
  primary key (student_id, school_day)
);

create table gam_notices (
  event_id    uuid primary key,
  student_id  bigint not null,
  kind        text not null check (kind in ('avatar_tier_advanced', 'streak_milestone')),
  value       integer not null,
  created_at  timestamptz not null
);
create index gam_notices_student_idx on gam_notices (student_id, created_at);

create sequence gam_xp_transaction_id_seq as bigint;
create sequence gam_student_badge_id_seq as bigint;

create function gam_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception '% is append-only: % refused', tg_table_name, tg_op using errcode = 'restrict_violation';
end;
$$;
create trigger gam_mastery_events_append_only before update or delete on gam_mastery_events
  for each row execute function gam_refuse_change();
create trigger gam_xp_ledger_append_only before update or delete on gam_xp_ledger
  for each row execute function gam_refuse_change();
create trigger gam_badge_awards_append_only before update or delete on gam_badge_awards
  for each row execute function gam_refuse_change();
create trigger gam_badge_rescinds_append_only before update or delete on gam_badge_rescinds
  for each row execute function gam_refuse_change();

-- Holidays of an organization's school calendar (Fridays and Saturdays are weekends by rule).
create table school_holidays (
  organization_id  text not null references organizations (id),
  day              date not null,
  primary key (organization_id, day)
);
