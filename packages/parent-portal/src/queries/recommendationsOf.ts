import type { ScreeningWindow } from '@qiraa/assessment';
import type { Sql } from '@qiraa/db';
import { STATUS_TOKENS } from '@qiraa/decisions';
import { inGender, type StudentGender } from '@qiraa/identity';
import { HALT_MESSAGES, SAFE_STOP_CODE } from '../engine/haltLabels';
import { CURRENT_TEMPLATE_LIBRARY, type DomainStanding, pickTemplates } from '../rules/templateLibrary';
import type { RecommendationsResponse } from '../schemas';
import { domainRank, statusesOf } from './statusesOf';

/**
 * The child's profile standing in a window, per macro-domain (the profile's decided domains). No active profile
 * assignment (no profile for the window, or the guard PR2-00 DATA_INCOMPLETE) is the GL-005 halt.
 */
async function standingsOf(sql: Sql, studentId: number, window: ScreeningWindow) {
  const { catalog, windows } = await statusesOf(sql, studentId, window);
  const statuses = windows[0];
  const windowLabel = catalog.windows.find((w) => w.code === window)?.nameAr ?? 'تقييم القراءة';
  if (!statuses?.profileActive) return { windowLabel, standings: null };
  const standings: DomainStanding[] = [];
  for (const domain of catalog.macroDomains) {
    const rank = domainRank(statuses, domain.id);
    if (rank !== null) standings.push({ macroDomainId: domain.id, status: STATUS_TOKENS[rank]! });
  }
  return { windowLabel, standings, domainLabel: new Map(catalog.macroDomains.map((d) => [d.id, d.labelAr])) };
}

/**
 * At most five at-home suggestions from the template library for the window, in the child's gender; with no
 * active profile, the safe halt (GL-005): `halted`, the Arabic message, no suggestion.
 */
export async function recommendationsOf(
  sql: Sql,
  child: { studentId: number; firstName: string; gender: StudentGender | null },
  window: ScreeningWindow,
): Promise<{ response: RecommendationsResponse; halted: boolean }> {
  const found = await standingsOf(sql, child.studentId, window);
  if (!found.standings) {
    return {
      halted: true,
      response: {
        firstName: child.firstName,
        windowLabel: found.windowLabel,
        halted: true,
        code: SAFE_STOP_CODE,
        haltMessage: inGender(HALT_MESSAGES, child.gender),
        suggestions: [],
      },
    };
  }
  const picked = pickTemplates(found.standings, CURRENT_TEMPLATE_LIBRARY);
  return {
    halted: false,
    response: {
      firstName: child.firstName,
      windowLabel: found.windowLabel,
      halted: false,
      code: null,
      haltMessage: null,
      suggestions: picked.map(({ domain, template }) => ({
        areaLabel: found.domainLabel?.get(domain.macroDomainId) ?? 'القراءة',
        text: inGender(template.text, child.gender),
      })),
    },
  };
}
