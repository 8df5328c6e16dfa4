import type { AnySql } from '@qiraa/db';

/** Every skill's Arabic label, by skill id (straight from the table: no catalog cache). */
export async function skillLabels(sql: AnySql): Promise<Map<string, string>> {
  const skills = await sql<{ id: string; label_ar: string }[]>`select id, label_ar from content_skills`;
  return new Map(skills.map((s) => [s.id, s.label_ar]));
}

/** Every training level's Arabic name, by level number. */
export async function trainingLevelNames(sql: AnySql): Promise<Map<number, string>> {
  const levels = await sql<{ number: number; name_ar: string }[]>`select number, name_ar from content_training_levels`;
  return new Map(levels.map((l) => [l.number, l.name_ar]));
}

/** Whether the catalog has this skill. */
export async function skillExists(sql: AnySql, skillId: string): Promise<boolean> {
  const [skill] = await sql`select 1 from content_skills where id = ${skillId}`;
  return skill !== undefined;
}
