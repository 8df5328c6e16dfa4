import { STATUS_TOKENS } from '@qiraa/decisions';
import { STATUS_PHRASES } from '../engine/statusPhrases';
import { TRAJECTORY_LABELS, trajectoryOf } from '../engine/trajectoryLabels';
import type { GrowthResponse } from '../schemas';
import { domainRank, type statusesOf } from './statusesOf';

type Statuses = Awaited<ReturnType<typeof statusesOf>>;

/**
 * Growth: per macro-domain with a decided status, the status phrase of each window of the year and the
 * trajectory category across the two latest; `measures`: the latest window's decided sub-skills with their
 * phrase. Nothing numeric leaves: ranks stay inside, phrases go out.
 */
export function growthOf(firstName: string, { catalog, windows }: Statuses): GrowthResponse {
  const domains: GrowthResponse['domains'] = [];
  for (const domain of catalog.macroDomains) {
    const ranks = windows.map((w) => domainRank(w, domain.id));
    const trajectory = trajectoryOf(ranks);
    if (!trajectory) continue;
    domains.push({
      labelAr: domain.labelAr,
      trajectoryLabel: TRAJECTORY_LABELS[trajectory],
      windows: windows.flatMap((w, i) =>
        ranks[i] === null
          ? []
          : [{ windowLabel: w.windowLabel, statusLabel: STATUS_PHRASES[STATUS_TOKENS[ranks[i]!]!] }],
      ),
    });
  }
  const latest = windows.findLast((w) => w.subSkills.length > 0);
  return {
    firstName,
    domains,
    measures: (latest?.subSkills ?? []).map((s) => ({ labelAr: s.labelAr, statusLabel: STATUS_PHRASES[s.status] })),
  };
}
