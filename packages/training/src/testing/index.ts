import { importDemoFiles } from '@qiraa/assessment/testing';
import type { Sql } from '@qiraa/db';

/** The demo pack's training content: target items at levels 1-4, bridge items, scaffold prompts. */
export const TRAINING_PACK = [
  'training-short-vowels.json',
  'training-initial-sound.json',
  'training-word-building.json',
  'training-taa-forms.json',
  'training-word-family.json',
  'bridge-items.json',
  'scaffold-prompts.json',
] as const;

export const importTrainingPack = (sql: Sql) => importDemoFiles(sql, TRAINING_PACK);

/** The key of an item's correct (or a wrong) option. */
export async function optionKey(sql: Sql, itemId: string, correct: boolean): Promise<string> {
  const [row] = await sql<{ k: string }[]>`
    select o->>'key' as k from content_items, jsonb_array_elements(options) o
    where id = ${itemId} and (o->>'key' = correct_option_key) = ${correct} order by 1 limit 1`;
  return row!.k;
}
