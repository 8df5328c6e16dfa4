import type { AnySql } from '@qiraa/db';

export const shadowName = (table: string) => `${table}__rebuild`;

/** An empty copy of the live table with its columns, defaults, constraints and indexes. */
export async function createShadowTable(sql: AnySql, table: string): Promise<void> {
  await sql`drop table if exists ${sql(shadowName(table))}`;
  await sql`create table ${sql(shadowName(table))} (like ${sql(table)} including all)`;
}

interface IndexRow {
  name: string;
  def: string;
}

async function indexesOf(sql: AnySql, table: string): Promise<IndexRow[]> {
  return sql<IndexRow[]>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = ${table}::regclass`;
}

// "CREATE UNIQUE INDEX audit_log_pkey ON public.audit_log USING btree (id)" → "CREATE UNIQUE INDEX ON USING btree (id)"
const shapeOf = (def: string) => def.replace(/INDEX \S+ ON \S+/, 'INDEX ON');

async function triggerDefinitions(sql: AnySql, table: string): Promise<string[]> {
  const rows = await sql<{ def: string }[]>`
    select pg_get_triggerdef(oid) as def from pg_trigger where tgrelid = ${table}::regclass and not tgisinternal`;
  return rows.map((r) => r.def);
}

/**
 * Puts the shadow in the live table's place inside the caller's transaction, gives its indexes the live
 * indexes' names so migrations keep finding them by name, and re-creates the live table's triggers
 * (`LIKE … INCLUDING ALL` copies no triggers, and the append-only guards must survive a rebuild).
 */
export async function swapInShadowTable(sql: AnySql, table: string): Promise<void> {
  const liveIndexes = await indexesOf(sql, table);
  const triggers = await triggerDefinitions(sql, table);
  await sql`lock table ${sql(table)} in access exclusive mode`;
  await sql`drop table ${sql(table)}`;
  await sql`alter table ${sql(shadowName(table))} rename to ${sql(table)}`;
  for (const index of await indexesOf(sql, table)) {
    const original = liveIndexes.find((live) => shapeOf(live.def) === shapeOf(index.def));
    if (original && original.name !== index.name) {
      await sql`alter index ${sql(index.name)} rename to ${sql(original.name)}`;
    }
  }
  // The definitions name the table, which now is the swapped-in one again.
  for (const definition of triggers) await sql.unsafe(definition);
}
