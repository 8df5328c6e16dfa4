import { type ItemRowDb, itemColumns } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';

/** An item-bank item by id (any status: a day keeps serving what it planned even if retired meanwhile). */
export async function practiceItemOf(sql: AnySql, itemId: string): Promise<ItemRowDb | null> {
  const [row] = await sql<ItemRowDb[]>`select ${itemColumns(sql)} from content_items where id = ${itemId}`;
  return row ?? null;
}
