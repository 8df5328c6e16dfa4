import type { ScreeningWindow } from '@qiraa/assessment';
import { type Catalog, loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { rankOf, type StatusToken, skillStatusOf } from '@qiraa/decisions';
import { lowerMedianRank } from '../labels/statusPhrases';

export interface DecidedSubSkill {
  subSkillId: string;
  labelAr: string;
  macroDomainId: string;
  status: StatusToken;
}

export interface WindowStatuses {
  window: ScreeningWindow;
  windowLabel: string;
  /** Decided rows only: a safe stop (do_not_decide_yet) says nothing to a parent yet. */
  subSkills: DecidedSubSkill[];
}

const macroDomainOf = (catalog: Catalog, subSkillId: string) => {
  const skillId = catalog.subSkillById.get(subSkillId)?.skillId;
  return skillId ? catalog.skillById.get(skillId)?.macroDomainId : undefined;
};

/**
 * The child's decided skill statuses of each window of one academic year (the newest with decisions unless
 * asked for), oldest window first, from the decisions context's `skillStatusOf`.
 */
export async function statusesOf(
  sql: Sql,
  studentId: number,
  only?: ScreeningWindow,
): Promise<{ catalog: Catalog; windows: WindowStatuses[] }> {
  const [all, catalog] = await Promise.all([skillStatusOf(sql, studentId, {}), loadCatalog(sql)]);
  const year = all.windows[0]?.academicYear;
  if (!year) return { catalog, windows: [] };
  const order = catalog.windows.map((w) => w.code as string);
  const inYear = all.windows
    .filter((w) => w.academicYear === year && (only === undefined || w.window === only))
    .map((w) => w.window)
    .sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const windows = await Promise.all(
    inYear.map(async (window): Promise<WindowStatuses> => {
      const read = await skillStatusOf(sql, studentId, { window, academicYear: year });
      const subSkills: DecidedSubSkill[] = [];
      for (const row of read.rows) {
        const macroDomainId = macroDomainOf(catalog, row.subSkillId);
        if (row.doNotDecideYet || row.status === null || !macroDomainId) continue;
        subSkills.push({ subSkillId: row.subSkillId, labelAr: row.subSkillLabelAr, macroDomainId, status: row.status });
      }
      return {
        window,
        windowLabel: catalog.windows.find((w) => w.code === window)?.nameAr ?? 'تقييم القراءة',
        subSkills,
      };
    }),
  );
  return { catalog, windows };
}

/** A macro-domain's status in one window: the lower median of its decided sub-skills (null when none). */
export function domainRank(statuses: WindowStatuses, macroDomainId: string): number | null {
  return lowerMedianRank(
    statuses.subSkills.filter((s) => s.macroDomainId === macroDomainId).map((s) => rankOf(s.status)),
  );
}
