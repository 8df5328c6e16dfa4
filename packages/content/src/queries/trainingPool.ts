import type { AnySql } from '@qiraa/db';
import { type ItemRowDb, itemColumns } from './itemViews';

/** Whose catalog and which grade a training read is for. */
export interface TrainingScope {
  organizationId: string;
  grade: number;
}

/** The skills with operational target-training items for the grade and scope, by ordinal, with their first measure. */
export async function trainableSkills(
  sql: AnySql,
  scope: TrainingScope,
): Promise<{ skillId: string; ordinal: number; measureCode: string | null }[]> {
  const rows = await sql<{ skill_id: string; ordinal: number; measure_code: string | null }[]>`
    select k.id as skill_id, k.ordinal,
           (select m.measure_code from content_measures m where m.skill_id = k.id order by m.ordinal limit 1) as measure_code
    from content_skills k
    where exists (
      select 1 from content_items i join content_sub_skills s on s.id = i.sub_skill_id
      where s.skill_id = k.id and i.content_role = 'target_training' and i.status = 'operational'
        and ${scope.grade} between s.grade_min and s.grade_max
        and (i.organization_id is null or i.organization_id = ${scope.organizationId}))
    order by k.ordinal`;
  return rows.map((r) => ({ skillId: r.skill_id, ordinal: r.ordinal, measureCode: r.measure_code }));
}

/**
 * `(skill_id, level, id, external_id)`: the operational target-training items of the grade and scope, a
 * subquery for a caller that orders them by its own data (training: least practised first).
 */
export const trainingItemsQuery = (sql: AnySql, scope: TrainingScope) => sql`
  select s.skill_id, i.training_level as level, i.id, i.external_id
  from content_items i join content_sub_skills s on s.id = i.sub_skill_id
  where i.content_role = 'target_training' and i.status = 'operational'
    and ${scope.grade} between s.grade_min and s.grade_max
    and (i.organization_id is null or i.organization_id = ${scope.organizationId})`;

/** Operational bridge items serving a target skill from the given support sub-skills, nearest grade first, up to `limit`. */
export async function bridgeItems(
  sql: AnySql,
  scope: TrainingScope,
  targetSkillId: string,
  supportSkills: readonly string[],
  limit: number,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select i.id from content_items i
    where i.content_role = 'bridge_practice' and i.status = 'operational'
      and i.bridge_target_skill_id = ${targetSkillId} and i.sub_skill_id = any(${sql.array(supportSkills as string[])})
      and (i.organization_id is null or i.organization_id = ${scope.organizationId})
    order by abs(i.grade - ${scope.grade}), i.external_id
    limit ${limit}`;
  return rows.map((r) => r.id);
}

/** The operational scaffold prompt of a sub-skill at a tier (the organization's own first), or null. */
export async function scaffoldPrompt(
  sql: AnySql,
  organizationId: string,
  subSkillIds: readonly string[],
  tier: number,
): Promise<{ id: string; promptAr: string } | null> {
  const [row] = await sql<{ id: string; prompt_ar: string }[]>`
    select id, prompt_ar from content_scaffold_prompts
    where sub_skill_id = any(${sql.array(subSkillIds as string[])}) and tier = ${tier} and status = 'operational'
      and (organization_id is null or organization_id = ${organizationId})
    order by organization_id nulls last, array_position(${sql.array(subSkillIds as string[])}::text[], sub_skill_id), version desc
    limit 1`;
  return row ? { id: row.id, promptAr: row.prompt_ar } : null;
}

/** `ItemRowDb` columns of one item-bank item by id, any status: a subquery for a statement that reads more at once. */
export const itemRowQuery = (sql: AnySql, itemId: string) =>
  sql`select ${itemColumns(sql)} from content_items where id = ${itemId}`;

/** An item-bank item by id, any status (a training day keeps serving what it planned even if retired meanwhile). */
export async function itemRowById(sql: AnySql, itemId: string): Promise<ItemRowDb | null> {
  const [row] = await sql<ItemRowDb[]>`${itemRowQuery(sql, itemId)}`;
  return row ?? null;
}

/** `(id, label_ar, ordinal)` of every skill, and `(number, name_ar)` of every training level: to join for labels. */
export const skillsQuery = (sql: AnySql) => sql`select k.id, k.label_ar, k.ordinal from content_skills k`;
export const trainingLevelsQuery = (sql: AnySql) => sql`select tl.number, tl.name_ar from content_training_levels tl`;

/** Whether the bank holds an operational target-training item of the scope (any grade, any skill when null). */
export async function hasTrainingContent(
  sql: AnySql,
  organizationId: string,
  grade: number | null,
  skillId: string | null,
): Promise<boolean> {
  const [row] = await sql`
    select 1 from content_items i join content_sub_skills s on s.id = i.sub_skill_id
    where i.content_role = 'target_training' and i.status = 'operational'
      and (i.organization_id is null or i.organization_id = ${organizationId})
      and (${grade}::int is null or i.grade = ${grade}::int)
      and (${skillId}::text is null or s.skill_id = ${skillId}::text)
    limit 1`;
  return row !== undefined;
}
