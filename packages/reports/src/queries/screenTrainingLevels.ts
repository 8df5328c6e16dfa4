import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { trainingLevelSeedsOf } from '@qiraa/decisions';

/** Spec `MeasureResult.trainingLevel`: the training level of the measure's skill and where it came from. */
export type MeasureTrainingLevel = { source: 'screen'; number: 1 | 2 | 3 | 4 } | null;

/**
 * The training level of each measure's skill in an academic year, from the decisions context's seeds: the
 * skill's standing seed of the year (TLS-01, `source: screen`), or null when the skill has none (every measure
 * of it incomplete, a sub-skill held `do_not_decide_yet`, or its sitting voided). Training moves the level
 * afterwards (`source: training`, next issue). One read per academic year asked for.
 */
export async function screenTrainingLevels(
  sql: Sql,
  studentId: number,
  academicYears: readonly string[],
): Promise<(academicYear: string, measureCode: string) => MeasureTrainingLevel> {
  const years = [...new Set(academicYears)];
  const [catalog, ...seeds] = await Promise.all([
    loadCatalog(sql),
    ...years.map((academicYear) => trainingLevelSeedsOf(sql, studentId, { academicYear })),
  ]);
  const levels = new Map<string, 1 | 2 | 3 | 4>();
  for (const seed of seeds.flat()) levels.set(`${seed.academicYear}|${seed.skillId}`, seed.level);
  return (academicYear, measureCode) => {
    const skillId = catalog.measureByCode.get(measureCode)?.skillId;
    const number = skillId === undefined ? undefined : levels.get(`${academicYear}|${skillId}`);
    return number === undefined ? null : { source: 'screen', number };
  };
}
