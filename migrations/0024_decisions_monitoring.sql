-- Progress monitoring (packages/decisions/src/monitoring, docs/decisions-monitoring.md). Read models of the
-- projection `decisions_monitoring` (rebuildable) from `decision-<studentId>`, and the notifier's ledger.

-- The latest trend decision per student and academic year (TrendDecided).
create table dec_trends (
  student_id         bigint not null,
  academic_year      text not null,
  -- null exactly when do_not_decide_yet
  decision           text check (decision in ('below_goal', 'on_goal', 'above_goal')),
  do_not_decide_yet  boolean not null,
  hold_reason        text check (hold_reason in ('no_baseline', 'no_goal', 'too_few_probes', 'too_short_span')),
  rule_id            text not null,
  rule_set_version   text not null,
  goal_line          jsonb,
  trend              jsonb,
  probes             jsonb not null,
  evidence_event_ids uuid[] not null,
  void_event_ids     uuid[] not null,
  trend_decision_id  uuid not null,
  supersedes_trend_decision_id uuid,
  decided_at         timestamptz not null,
  stream_version     bigint not null,
  primary key (student_id, academic_year),
  check ((decision is null) = do_not_decide_yet)
);

-- Every monitoring alert and where its lifecycle stands (RegressionAlertRaised, TrendAlertRaised,
-- MonitoringAlertEscalated, MonitoringAlertClosed).
create table dec_alerts (
  alert_id           uuid primary key,
  student_id         bigint not null,
  academic_year      text not null,
  alert_kind         text not null check (alert_kind in ('acute_regression', 'trend_below_goal')),
  anchor_attempt_id  uuid not null,
  status             text not null check (status in ('open', 'escalated', 'closed')),
  close_reason       text check (close_reason in ('recovered', 'trend_recovered', 'probe_voided')),
  rule_id            text not null,
  rule_set_version   text not null,
  detail             jsonb not null,
  evidence_event_ids uuid[] not null,
  opened_at          timestamptz not null,
  changed_at         timestamptz not null,
  last_event_id      uuid not null,
  stream_version     bigint not null,
  check ((status = 'closed') = (close_reason is not null))
);
-- Clusters leave out students with an open acute regression (individualReview).
create index dec_alerts_open_acute_idx on dec_alerts (student_id) where alert_kind = 'acute_regression' and status <> 'closed';
create index dec_alerts_student_idx on dec_alerts (student_id, academic_year);

-- The notifier's ledger (projection `decisions_monitoring_notifier`): one row per alert transition, class and
-- notification kind dispatched, so a re-delivered transition (a replayed batch, a rebuild) notifies nobody twice.
-- Not a read model: a rebuild of the notifier keeps it.
create table dec_alert_dispatches (
  transition_event_id uuid not null,
  class_id            text not null,
  kind                text not null,
  outcome             text not null check (outcome in ('fanned_out', 'no_recipients', 'refused')),
  dispatched_at       timestamptz not null default now(),
  primary key (transition_event_id, class_id, kind)
);
