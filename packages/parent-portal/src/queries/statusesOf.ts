import type { ScreeningWindow } from '@qiraa/assessment';
import { type Catalog, loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { isDataIncomplete, profileOf, rankOf, type StatusToken, skillStatusOf } from '@qiraa/decisions';

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
  /** The window's domain profile (PR1-01): each decided macro-domain's status; a held domain is left out. */
  domains: ReadonlyMap<string, StatusToken>;
  /**
   * An active profile assignment: the window has a profile and it is not the guard (PR2-00, DATA_INCOMPLETE).
   * Without one, recommendations halt (GL-005).
   */
  profileActive: boolean;
}

const macroDomainOf = (catalog: Catalog, subSkillId: string) => {
  const skillId = catalog.subSkillById.get(subSkillId)?.skillId;
  return skillId ? catalog.skillById.get(skillId)?.macroDomainId : undefined;
};

/**
 * The child's decided skill statuses and domain profile of each window of one academic year (the newest with decisions unless
 * asked for), oldest window first, from the decisions context's `skillStatusOf` and `profileOf`.
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
      const [read, profile] = await Promise.all([
        skillStatusOf(sql, studentId, { window, academicYear: year }),
        profileOf(sql, studentId, { window, academicYear: year }),
      ]);
      const domains = new Map<string, StatusToken>();
      for (const d of profile?.domains ?? []) if (d.status !== null) domains.set(d.macroDomainId, d.status);
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
        domains,
        profileActive: !isDataIncomplete(profile),
      };
    }),
  );
  return { catalog, windows };
}

/** A macro-domain's status rank in one window, from the window's profile (null when undecided or held). */
export function domainRank(statuses: WindowStatuses, macroDomainId: string): number | null {
  const status = statuses.domains.get(macroDomainId);
  return status === undefined ? null : rankOf(status);
}
