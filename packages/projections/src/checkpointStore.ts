import type { AnySql } from '@qiraa/db';
import type { Checkpoint } from '@qiraa/eventstore';

export interface StoredCheckpoint {
  name: string;
  version: number;
  checkpoint: Checkpoint | null;
  eventsApplied: bigint;
  updatedAt: Date;
  rebuiltAt: Date | null;
}

interface Row {
  name: string;
  version: number;
  checkpoint: string | null;
  events_applied: bigint;
  updated_at: Date;
  rebuilt_at: Date | null;
}

const toStored = (r: Row): StoredCheckpoint => ({
  name: r.name,
  version: r.version,
  checkpoint: r.checkpoint,
  eventsApplied: r.events_applied,
  updatedAt: r.updated_at,
  rebuiltAt: r.rebuilt_at,
});

/** Reads a checkpoint, creating the row at the log's start for a projection seen the first time. */
export async function loadCheckpoint(sql: AnySql, name: string, version: number): Promise<StoredCheckpoint> {
  await sql`insert into projection_checkpoints (name, version) values (${name}, ${version}) on conflict do nothing`;
  const [row] = await sql<Row[]>`select * from projection_checkpoints where name = ${name}`;
  return toStored(row!);
}

export async function readCheckpoints(sql: AnySql): Promise<Map<string, StoredCheckpoint>> {
  const rows = await sql<Row[]>`select * from projection_checkpoints`;
  return new Map(rows.map((r) => [r.name, toStored(r)]));
}

export async function saveCheckpoint(
  sql: AnySql,
  name: string,
  checkpoint: Checkpoint | null,
  applied: number,
): Promise<void> {
  await sql`
    update projection_checkpoints
    set checkpoint = ${checkpoint}, events_applied = events_applied + ${applied}, updated_at = now()
    where name = ${name}`;
}

export async function replaceCheckpoint(
  sql: AnySql,
  name: string,
  version: number,
  checkpoint: Checkpoint | null,
  applied: bigint,
): Promise<void> {
  await sql`
    insert into projection_checkpoints (name, version, checkpoint, events_applied, rebuilt_at)
    values (${name}, ${version}, ${checkpoint}, ${applied}, now())
    on conflict (name) do update set version = excluded.version, checkpoint = excluded.checkpoint,
      events_applied = excluded.events_applied, updated_at = now(), rebuilt_at = now()`;
}
