import { bridgeItems, scaffoldPrompt, trainableSkills, trainingItemsQuery } from '@qiraa/content';
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
export const trainableSkillsOf = (sql: AnySql, learner: Learner): Promise<TrainableSkill[]> =>
  trainableSkills(sql, learner);

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
    select i.skill_id, i.level, i.id
    from (${trainingItemsQuery(sql, learner)}) i
    join jsonb_to_recordset(${sql.json(cells as never)}) as c("skillId" text, level smallint)
      on c."skillId" = i.skill_id and c.level = i.level
    left join lateral (
      select count(*) as n from trn_answers a where a.student_id = ${learner.studentId} and a.item_id = i.id
    ) used on true
    order by i.skill_id, i.level, used.n, i.external_id`;
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${r.skill_id}|${r.level}`;
    out.set(key, [...(out.get(key) ?? []), r.id]);
  }
  return out;
}

/** Operational bridge items serving a target skill from the given support sub-skills, up to `limit`. */
export const bridgeItemsOf = (
  sql: AnySql,
  learner: Learner,
  targetSkillId: string,
  supportSkills: readonly string[],
  limit: number,
): Promise<string[]> => bridgeItems(sql, learner, targetSkillId, supportSkills, limit);

/** The operational scaffold prompt of a sub-skill at a tier (the organization's own first), or null. */
export const scaffoldPromptOf = scaffoldPrompt;
