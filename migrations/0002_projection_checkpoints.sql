-- One row per projection: the read model's position in the event log, written in the same
-- transaction as the read-model rows it covers.
create table projection_checkpoints (
  name           text primary key,
  version        integer not null,
  checkpoint     text,
  events_applied bigint not null default 0,
  updated_at     timestamptz not null default now(),
  rebuilt_at     timestamptz
);
