-- Reactions (packages/projections/src/reactions, docs/architecture.md "Adding a reaction"): named,
-- checkpointed consumers of the event log that perform effects (notifications, credits) at least once,
-- retry transient errors with backoff and park an event after a bounded number of tries.

-- One row per reaction: the position of the last event handled or parked. Moved by compare-and-set, so a
-- consumer that lost its advisory lock (its connection died) can never move it backwards.
create table reaction_checkpoints (
  name           text primary key,
  checkpoint     text,
  events_handled bigint not null default 0,
  updated_at     timestamptz not null default now()
);

-- Events a reaction gave up on after its tries (or at once, for a refusal that would only repeat). Never
-- dropped: `qiraa reactions status` lists them, /metrics and /readyz count them, `qiraa reactions retry`
-- re-drives them; a re-driven event that succeeds keeps its row with `resolved_at` set (the history).
create table reaction_parked (
  reaction       text not null,
  event_id       uuid not null,
  event_type     text not null,
  stream_id      text not null,
  stream_version bigint not null,
  position       text not null,
  error          text not null,
  attempts       integer not null check (attempts >= 1),
  parked_at      timestamptz not null default now(),
  last_failed_at timestamptz not null default now(),
  resolved_at    timestamptz,
  primary key (reaction, event_id)
);
create index reaction_parked_open_idx on reaction_parked (reaction) where resolved_at is null;

-- The three notifiers and the bundle-progress reactor were projections; as reactions they go on from where
-- they were, so nothing already sent is sent again (their ledgers and dispatch keys would stop it anyway).
insert into reaction_checkpoints (name, checkpoint, events_handled, updated_at)
select name, checkpoint, events_applied, updated_at from projection_checkpoints
where name in ('training_alerts_notifier', 'decisions_monitoring_notifier', 'decisions_profiles_notifier',
               'clusters_bundle_progress_reactor')
on conflict (name) do nothing;
delete from projection_checkpoints
where name in ('training_alerts_notifier', 'decisions_monitoring_notifier', 'decisions_profiles_notifier',
               'clusters_bundle_progress_reactor');

-- What the notifiers used to swallow as `refused` (a child's name the payload refused, the language rules
-- unavailable, a database error) becomes a parked event of its reaction, so `qiraa reactions retry` can
-- deliver it; its `refused` ledger row goes, or the retry would skip it as already sent.
insert into reaction_parked (reaction, event_id, event_type, stream_id, stream_version, position, error, attempts)
select 'training_alerts_notifier', e.event_id, e.event_type, e.stream_id, e.stream_version,
       e.transaction_id::text || ':' || e.global_position, 'refused before migration 0033 (no error kept)', 1
from es_events e
where e.event_type = 'TrainingAlertRaised'
  and exists (select 1 from trn_alert_dispatches d where d.alert_id::text = e.data->>'alertId' and d.outcome = 'refused')
on conflict do nothing;
delete from trn_alert_dispatches where outcome = 'refused';

insert into reaction_parked (reaction, event_id, event_type, stream_id, stream_version, position, error, attempts)
select 'decisions_monitoring_notifier', e.event_id, e.event_type, e.stream_id, e.stream_version,
       e.transaction_id::text || ':' || e.global_position, 'refused before migration 0033 (no error kept)', 1
from es_events e
where exists (select 1 from dec_alert_dispatches d where d.transition_event_id = e.event_id and d.outcome = 'refused')
on conflict do nothing;
delete from dec_alert_dispatches where outcome = 'refused';

insert into reaction_parked (reaction, event_id, event_type, stream_id, stream_version, position, error, attempts)
select 'decisions_profiles_notifier', e.event_id, e.event_type, e.stream_id, e.stream_version,
       e.transaction_id::text || ':' || e.global_position, 'refused before migration 0033 (no error kept)', 1
from es_events e
where exists (select 1 from dec_profile_dispatches d where d.event_id = e.event_id and d.outcome = 'refused')
on conflict do nothing;
delete from dec_profile_dispatches where outcome = 'refused';

-- PersonName (packages/kernel/src/personName.ts): normalised on write; the rows written before the rule get
-- the same treatment (NFC, trimmed, every run of white space one space).
update users
set full_name_ar = normalize(regexp_replace(btrim(full_name_ar, E' \t\r\n\u00a0'), '[[:space:]\u00a0]+', ' ', 'g'), NFC)
where full_name_ar ~ '[[:space:]\u00a0]{2,}|^[[:space:]\u00a0]|[[:space:]\u00a0]$|[\t\r\n\u00a0]'
   or full_name_ar is not nfc normalized;
