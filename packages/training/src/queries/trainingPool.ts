import type { AnySql } from '@qiraa/db';
import type { Learner } from './learner';

/** A skill the child's grade can train: it has operational target-training items for a sub-skill of the grade. */
export interface TrainableSkill {
  skillId: string;
  ordinal: number;
  /** The skill's first screening measure (catalog order), null for a skill no measure screens. */
  measureCode: string | null;
}

/** Target-training items of the sub-skills the grade covers, in the organization's scope (global or its own). */
export async function trainableSkillsOf(sql: AnySql, learner: Learner): Promise<TrainableSkill[]> {
  const rows = await sql<{ skill_id: string; ordinal: number; measure_code: string | null }[]>`
    select k.id as skill_id, k.ordinal,
           (select m.measure_code from content_measures m where m.skill_id = k.id order by m.ordinal limit 1) as measure_code
    from content_skills k
    where exists (
      select 1 from content_items i join content_sub_skills s on s.id = i.sub_skill_id
      where s.skill_id = k.id and i.content_role = 'target_training' and i.status = 'operational'
        and ${learner.grade} between s.grade_min and s.grade_max
        and (i.organization_id is null or i.organization_id = ${learner.organizationId}))
    order by k.ordinal`;
  return rows.map((r) => ({ skillId: r.skill_id, ordinal: r.ordinal, measureCode: r.measure_code }));
}

/**
 * Items per skill at the given levels, least practised by the child first (then external id), so consecutive
 * days spread over the whole level before repeating.
 */
export async function targetItemsOf(
  sql: AnySql,
  learner: Learner,
  cells: readonly { skillId: string; level: number }[],
): Promise<Map<string, string[]>> {
  if (cells.length === 0) return new Map();
  const rows = await sql<{ skill_id: string; level: number; id: string }[]>`
    select s.skill_id, i.training_level as level, i.id
    from content_items i
    join content_sub_skills s on s.id = i.sub_skill_id
    join jsonb_to_recordset(${sql.json(cells as never)}) as c("skillId" text, level smallint)
      on c."skillId" = s.skill_id and c.level = i.training_level
    left join lateral (
      select count(*) as n from trn_answers a where a.student_id = ${learner.studentId} and a.item_id = i.id
    ) used on true
    where i.content_role = 'target_training' and i.status = 'operational'
      and ${learner.grade} between s.grade_min and s.grade_max
      and (i.organization_id is null or i.organization_id = ${learner.organizationId})
    order by s.skill_id, i.training_level, used.n, i.external_id`;
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${r.skill_id}|${r.level}`;
    out.set(key, [...(out.get(key) ?? []), r.id]);
  }
  return out;
}

/** Operational bridge items serving a target skill from the given support sub-skills, up to `limit`. */
export async function bridgeItemsOf(
  sql: AnySql,
  learner: Learner,
  targetSkillId: string,
  supportSkills: readonly string[],
  limit: number,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select i.id from content_items i
    where i.content_role = 'bridge_practice' and i.status = 'operational'
      and i.bridge_target_skill_id = ${targetSkillId} and i.sub_skill_id = any(${sql.array(supportSkills as string[])})
      and (i.organization_id is null or i.organization_id = ${learner.organizationId})
    order by abs(i.grade - ${learner.grade}), i.external_id
    limit ${limit}`;
  return rows.map((r) => r.id);
}

/** The operational scaffold prompt of a sub-skill at a tier (the organization's own first), or null. */
export async function scaffoldPromptOf(
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
