import { trainingItemCandidates } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import type { LatestSkillStatus } from '@qiraa/decisions';

/** Fewer operational training items than this for a target sub-skill gives the draft an advisory note. */
export const THIN_COVERAGE = 4;
/** Items each slot gets per target sub-skill. */
export const ITEMS_PER_SUB_SKILL = 3;

/** The start level a child's standing status points at (rule SIT-01, docs/sessions.md). */
const START_LEVEL: Record<string, number> = { beginning: 1, developing: 2, on_track: 3, strong: 4 };

export async function itemCoverage(
  sql: AnySql,
  organizationId: string,
  grade: number,
  subSkillIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const c of await trainingItemCandidates(sql, organizationId, grade, subSkillIds)) {
    counts.set(c.sub_skill_id, (counts.get(c.sub_skill_id) ?? 0) + 1);
  }
  return counts;
}

/**
 * Each student's items, frozen at accept (rule SIT-01): per target sub-skill, the ITEMS_PER_SUB_SKILL
 * operational training items nearest the level the child's standing status points at (level 1 without a
 * decision), ties by level then external id. Deterministic: the same pins give the same items.
 */
export async function itemsForStudents(
  sql: AnySql,
  place: { organizationId: string; grade: number; subSkillIds: readonly string[] },
  studentIds: readonly number[],
  statuses: readonly LatestSkillStatus[],
): Promise<Map<number, string[]>> {
  const pool = await trainingItemCandidates(sql, place.organizationId, place.grade, place.subSkillIds);
  const status = new Map(statuses.map((s) => [`${s.studentId}:${s.subSkillId}`, s.status]));
  const result = new Map<number, string[]>();
  for (const studentId of studentIds) {
    const ids: string[] = [];
    for (const subSkillId of place.subSkillIds) {
      const start = START_LEVEL[status.get(`${studentId}:${subSkillId}`) ?? ''] ?? 1;
      const nearest = pool
        .filter((c) => c.sub_skill_id === subSkillId)
        .map((c, order) => ({ c, order, distance: Math.abs((c.training_level ?? 1) - start) }))
        .sort((a, b) => a.distance - b.distance || a.order - b.order)
        .slice(0, ITEMS_PER_SUB_SKILL);
      ids.push(...nearest.map((n) => n.c.id));
    }
    result.set(studentId, ids);
  }
  return result;
}
