-- The event store: every ledger an auditor must be able to replay lives here (see docs/architecture.md).
create sequence es_global_position as bigint;

create table es_streams (
  stream_id   text primary key,
  stream_type text not null,
  version     bigint not null check (version >= 0),
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);

create table es_events (
  global_position bigint not null default nextval('es_global_position'),
  -- The writing transaction: readers only take events of transactions below the snapshot's xmin,
  -- so an event that took a low position but committed late is never skipped.
  transaction_id  xid8 not null default pg_current_xact_id(),
  stream_id       text not null references es_streams (stream_id),
  stream_version  bigint not null check (stream_version >= 1),
  event_id        uuid not null,
  event_type      text not null,
  schema_version  integer not null default 1 check (schema_version >= 1),
  data            jsonb not null,
  metadata        jsonb not null default '{}'::jsonb,
  created_at      timestamptz not null default now(),
  primary key (stream_id, stream_version),
  constraint es_events_event_id_key unique (event_id)
);

create unique index es_events_global_position_idx on es_events (global_position);
create index es_events_transaction_position_idx on es_events (transaction_id, global_position);
create index es_events_type_idx on es_events (event_type, transaction_id, global_position);

create function es_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'es_events is append-only: % refused', tg_op using errcode = 'restrict_violation';
end;
$$;

create trigger es_events_no_update before update or delete on es_events
  for each row execute function es_refuse_change();
create trigger es_events_no_truncate before truncate on es_events
  for each statement execute function es_refuse_change();
