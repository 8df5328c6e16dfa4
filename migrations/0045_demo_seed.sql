-- `qiraa seed-demo` is all-or-nothing (apps/cli/src/commands/seedDemoGuard.ts, docs/operations.md "Demo seed").
-- Before it writes anything, the seed records that it runs and copies every non-empty table as it is (on a
-- database without users: the reference rows the migrations inserted, checkpoints). A seed that fails or is
-- interrupted puts those copies back; one that was killed is put back by the next `qiraa seed-demo`.
create table demo_seed_runs (
  id int primary key default 1 check (id = 1),
  state text not null check (state in ('running', 'done')),
  started_at timestamptz not null,
  finished_at timestamptz
);

create table demo_seed_baseline (
  table_name text primary key,
  rows jsonb not null
);
