-- Windowed board counts from a rollup (packages/gamification/src/projections/ledgerProjection.ts,
-- docs/gamification.md "Leaderboards"): per student and school day with at least one mastery event, the
-- CUMULATIVE count of the student's mastery events up to and including that day, in total and per source
-- kind. Any window [from, to] is then two index lookups per student: the last row on or before `to` minus
-- the last row before `from`. Part of the gamification_ledger projection (rebuilt with it; version 2).
-- Not append-only: an event for an earlier day (late delivery) adds to every later row of the student.
create table gam_mastery_day_counts (
  student_id                bigint not null,
  school_day                date not null,
  total                     integer not null,
  subskill_state_up         integer not null,
  cbm_trend_above_goal      integer not null,
  bundle_step_goal_met      integer not null,
  band_progression          integer not null,
  skill_status_transition   integer not null,
  domain_status_escalation  integer not null,
  bundle_completion         integer not null,
  scaffold_tier_step_up     integer not null,
  primary key (student_id, school_day)
);

-- Existing events, so the boards are right before the projection's version-2 rebuild replaces this.
insert into gam_mastery_day_counts
select student_id, school_day,
  sum(count(*)) over w,
  sum(count(*) filter (where source_kind = 'subskill_state_up')) over w,
  sum(count(*) filter (where source_kind = 'cbm_trend_above_goal')) over w,
  sum(count(*) filter (where source_kind = 'bundle_step_goal_met')) over w,
  sum(count(*) filter (where source_kind = 'band_progression')) over w,
  sum(count(*) filter (where source_kind = 'skill_status_transition')) over w,
  sum(count(*) filter (where source_kind = 'domain_status_escalation')) over w,
  sum(count(*) filter (where source_kind = 'bundle_completion')) over w,
  sum(count(*) filter (where source_kind = 'scaffold_tier_step_up')) over w
from gam_mastery_events
group by student_id, school_day
window w as (partition by student_id order by school_day);
