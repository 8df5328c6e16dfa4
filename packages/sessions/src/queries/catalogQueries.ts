import type { AnySql } from '@qiraa/db';
import { latestSkillStatuses } from '@qiraa/decisions';
import { type Caller, classRoster } from '@qiraa/identity';
import { SUPPORT_WEIGHTS, type Theme } from '../codes';
import { type Blueprint, type BlueprintRow, blueprintOf, encodeCursor } from './blueprintQueries';
import { visibleScope } from './blueprintScope';

export interface CatalogFilter {
  grade?: number;
  theme?: Theme;
  subSkillId?: string;
  keyword?: string;
}

/** `%` and `_` of a keyword are literal. */
const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Operational blueprints the caller can see (global and their organization's), newest first, cursor paged. */
export async function catalog(
  sql: AnySql,
  caller: Caller,
  filter: CatalogFilter,
  page: { limit: number; after: { at: string; id: string } | null },
): Promise<{ blueprints: Blueprint[]; nextCursor: string | null }> {
  const rows = await sql<BlueprintRow[]>`
    select * from ses_blueprints
    where status = 'operational' and ${visibleScope(sql, caller)}
      ${filter.grade === undefined ? sql`` : sql`and grade = ${filter.grade}`}
      ${filter.theme === undefined ? sql`` : sql`and theme = ${filter.theme}`}
      ${filter.subSkillId === undefined ? sql`` : sql`and ${filter.subSkillId} = any(sub_skill_ids)`}
      ${
        filter.keyword === undefined
          ? sql``
          : sql`and (title_ar ilike ${likePattern(filter.keyword)} or external_id ilike ${likePattern(filter.keyword)}
                     or ${filter.keyword.toLowerCase()} = any(tags))`
      }
      ${page.after ? sql`and (date_trunc('milliseconds', created_at), id) < (${page.after.at}::timestamptz, ${page.after.id})` : sql``}
    order by date_trunc('milliseconds', created_at) desc, id desc limit ${page.limit + 1}`;
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return {
    blueprints: shown.map(blueprintOf),
    nextCursor: rows.length > page.limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

export interface Recommendation {
  blueprint: Blueprint;
  score: number;
  studentsWithNeed: number;
  bySupportLevel: { intensive: number; strategic: number };
}

/**
 * Rule SRK-01 (docs/sessions.md): for each operational blueprint of the class's grade, each active student
 * counts once, with the weight of their highest need on the blueprint's sub-skills in their newest decided
 * window: `beginning` (intensive support) 3, `developing` (strategic) 2, on_track, strong, do_not_decide_yet
 * or no decision 0. Ranked by that score, then by students with a need, then newest.
 */
export async function recommended(
  sql: AnySql,
  cls: { id: string; grade: number; organizationId: string },
  limit: number,
): Promise<Recommendation[]> {
  const students = await classRoster(sql, cls.id);
  const [statuses, rows] = await Promise.all([
    latestSkillStatuses(sql, students),
    sql<BlueprintRow[]>`
      select * from ses_blueprints where status = 'operational' and grade = ${cls.grade}
        and (organization_id is null or organization_id = ${cls.organizationId})
      order by created_at desc, id desc`,
  ]);
  const weight = new Map<string, number>();
  for (const s of statuses) {
    const w = s.status === 'beginning' || s.status === 'developing' ? SUPPORT_WEIGHTS[s.status] : 0;
    if (!s.doNotDecideYet && w > 0) weight.set(`${s.studentId}:${s.subSkillId}`, w);
  }
  return rows
    .map((r) => {
      let intensive = 0;
      let strategic = 0;
      for (const student of students) {
        const top = Math.max(0, ...r.sub_skill_ids.map((sk) => weight.get(`${student}:${sk}`) ?? 0));
        if (top === SUPPORT_WEIGHTS.beginning) intensive++;
        else if (top === SUPPORT_WEIGHTS.developing) strategic++;
      }
      return {
        blueprint: blueprintOf(r),
        score: intensive * SUPPORT_WEIGHTS.beginning + strategic * SUPPORT_WEIGHTS.developing,
        studentsWithNeed: intensive + strategic,
        bySupportLevel: { intensive, strategic },
      };
    })
    .sort((a, b) => b.score - a.score || b.studentsWithNeed - a.studentsWithNeed)
    .slice(0, limit);
}
