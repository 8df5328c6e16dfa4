-- Training alerts, support groups and teacher sends (packages/training/src/{alerts,groups,sends},
-- docs/training-alerts.md).

-- The alerts reactor's own inputs (projection `training_alerts_reactor`, rebuildable): the level each skill of a
-- student stands at and since when, and every ended training day with the stay it was counted in. Kept apart
-- from the training context's own read models so the reactor reads exactly what its checkpoint has applied.
create table trn_alert_levels (
  student_id      bigint not null,
  skill_id        text not null,
  organization_id text,
  level           integer not null check (level between 1 and 4),
  measure_code    text,
  since           date not null,
  -- the TrainingLevelStarted / TrainingLevelMoved event that began the stay
  level_event_id  uuid not null,
  stream_version  bigint not null,
  primary key (student_id, skill_id)
);

create table trn_alert_days (
  day_id          uuid not null,
  skill_id        text not null,
  student_id      bigint not null,
  level           integer not null,
  date            date not null,
  counted         integer not null check (counted >= 0),
  correct         integer not null check (correct >= 0 and correct <= counted),
  -- the stay (its level event) the day counted toward; null when the day's level was not the skill's level then
  level_event_id  uuid,
  -- the TrainingDayEnded event and when it was appended: a stay's days are ordered by (date, ended_at)
  event_id        uuid not null,
  ended_at        timestamptz not null,
  primary key (day_id, skill_id)
);
create index trn_alert_days_stay_idx on trn_alert_days (level_event_id);

-- Every training alert and where it stands (TrainingAlertRaised, TrainingAlertAcknowledged, TrainingAlertResolved
-- on `trainingalert-<alertId>`; projection `training_alerts`).
create table trn_alerts (
  alert_id          uuid primary key,
  organization_id   text,
  student_id        bigint not null,
  skill_id          text not null,
  measure_code      text,
  level_number      integer not null check (level_number between 1 and 4),
  kind              text not null check (kind in ('no_progress_at_level', 'support_review_suggested')),
  rule_id           text not null,
  rule_set_version  text not null,
  level_event_id    uuid not null,
  evidence          jsonb not null,
  status            text not null check (status in ('open', 'acknowledged', 'resolved')),
  raised_at         timestamptz not null,
  acknowledged_at   timestamptz,
  acknowledged_by   bigint,
  resolved_at       timestamptz,
  resolved_by_level_event_id uuid,
  stream_version    bigint not null
);
create index trn_alerts_student_idx on trn_alerts (student_id, skill_id);
create index trn_alerts_open_idx on trn_alerts (student_id) where status <> 'resolved';

-- The notifier's ledger (projection `training_alerts_notifier`): one row per raised alert and class, so a
-- re-delivered raise (a replayed batch, a rebuild) notifies nobody twice. Not a read model.
create table trn_alert_dispatches (
  alert_id      uuid not null,
  class_id      text not null,
  kind          text not null,
  outcome       text not null check (outcome in ('fanned_out', 'no_recipients', 'refused')),
  dispatched_at timestamptz not null default now(),
  primary key (alert_id, class_id)
);

-- Support groups: a teacher-owned set of students (ordinary tables; docs/training-alerts.md, Support groups).
create table trn_support_groups (
  id              uuid primary key,
  organization_id text not null references organizations (id),
  owner_user_id   bigint not null references users (id),
  name_ar         text not null,
  created_at      timestamptz not null default now(),
  archived_at     timestamptz
);
create index trn_support_groups_owner_idx on trn_support_groups (owner_user_id) where archived_at is null;

create table trn_support_group_members (
  group_id        uuid not null references trn_support_groups (id),
  student_user_id bigint not null references users (id),
  added_at        timestamptz not null default now(),
  primary key (group_id, student_user_id)
);
create index trn_support_group_members_student_idx on trn_support_group_members (student_user_id);

-- Teacher sends (assign-training): the read model of TrainingSent on `trainingsend-<sendId>` (projection
-- `training_sends`).
create table trn_sends (
  send_id           uuid primary key,
  organization_id   text not null,
  teacher_user_id   bigint not null,
  sent_by_user_id   bigint not null,
  class_id          text,
  group_id          uuid,
  skill_id          text,
  student_ids       bigint[] not null,
  until_at          timestamptz not null,
  created_at        timestamptz not null
);
create index trn_sends_student_idx on trn_sends using gin (student_ids);

-- The answers a send's X-Idempotency-Key keeps (one per caller and key): the first success and the hash of its
-- body. Also the rate-limit window: successful sends per caller and 15 minutes.
create table trn_send_requests (
  caller_user_id  bigint not null,
  idempotency_key text not null,
  body_hash       text not null,
  status          integer not null,
  response        jsonb not null,
  created_at      timestamptz not null default now(),
  primary key (caller_user_id, idempotency_key)
);
create index trn_send_requests_window_idx on trn_send_requests (caller_user_id, created_at);
