-- The ledger of schedule runs (docs/architecture.md, "Schedules"): one row per schedule and due tick. A process
-- claims a tick by inserting its row (on conflict do nothing), so a tick runs once across every API process and
-- worker, with or without Redis. A claim that failed, or whose process died (no completion within the lease),
-- is taken over by the next look.
create table schedule_runs (
  schedule      text not null,
  tick          text not null,
  due_at        timestamptz not null,
  claimed_by    text not null,
  -- Infrastructure time (the lease), not a domain rule: the database clock.
  claimed_at    timestamptz not null default now(),
  attempts      int not null default 1,
  completed_at  timestamptz,
  outcome       jsonb,
  error         text,
  primary key (schedule, tick)
);
create index schedule_runs_latest on schedule_runs (schedule, due_at desc);
