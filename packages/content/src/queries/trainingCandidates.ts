import type { AnySql } from '@qiraa/db';
import { type ItemRowDb, itemColumns, type StudentItem, studentItemOf } from './itemViews';

export interface TrainingCandidate {
  id: string;
  sub_skill_id: string;
  training_level: number | null;
  external_id: string;
}

/**
 * Operational training items of the scope (global or the organization's) for the grade and sub-skills, by
 * sub-skill, level, external id and id: the order a session's item rule (SIT-01) breaks its ties by.
 */
export const trainingItemCandidates = (
  sql: AnySql,
  organizationId: string,
  grade: number,
  subSkillIds: readonly string[],
) => sql<TrainingCandidate[]>`
  select id, sub_skill_id, training_level, external_id from content_items
  where status = 'operational' and content_role = 'target_training' and grade = ${grade}
    and sub_skill_id = any(${subSkillIds as string[]})
    and (organization_id is null or organization_id = ${organizationId})
  order by sub_skill_id, training_level, external_id, id`;

/** The student projection of items by id (what a printed sheet shows; never the correct option). */
export async function studentItemsByIds(sql: AnySql, ids: readonly string[]): Promise<Map<string, StudentItem>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<ItemRowDb[]>`select ${itemColumns(sql)} from content_items where id = any(${ids as string[]})`;
  return new Map(rows.map((r) => [r.id, studentItemOf(r)]));
}
