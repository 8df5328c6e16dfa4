import type { WindowCode } from '../queries/catalogTypes';
import type { WordListScope } from '../rules/wordListRules';

/** Where a list is served: an organization (null: global content only), optionally one of its schools. */
export interface ServingPlace {
  organizationId: string | null;
  schoolId: string | null;
  grade: number;
  skillId: string;
  window: WindowCode;
}

/** What the serving order reads of an operational list. */
export interface ServingCandidate {
  id: string;
  scope: WordListScope;
  organizationId: string | null;
  schoolId: string | null;
  grade: number;
  skillId: string;
  window: WindowCode | null;
  version: number;
  publishedAt: Date | null;
}

/** 0 for the most specific scope; null when the list is not in the place's scope chain. */
function scopeRank(c: ServingCandidate, at: ServingPlace): number | null {
  if (c.scope === 'school') {
    return at.schoolId !== null && c.schoolId === at.schoolId && c.organizationId === at.organizationId ? 0 : null;
  }
  if (c.scope === 'organization')
    return at.organizationId !== null && c.organizationId === at.organizationId ? 1 : null;
  return 2;
}

const publishedMs = (c: ServingCandidate) => c.publishedAt?.getTime() ?? 0;

/**
 * The list served at a place, from operational candidates: the most specific scope first (school, then
 * organization, then global), then a list of that window before an all-window list, then the newest (latest
 * publishedAt, i.e. the one made operational last; then the higher version and the id, so the answer is
 * deterministic). Null when none fits.
 */
export function servedList<T extends ServingCandidate>(candidates: readonly T[], at: ServingPlace): T | null {
  let best: { c: T; key: [number, number, number, number] } | null = null;
  for (const c of candidates) {
    if (c.grade !== at.grade || c.skillId !== at.skillId) continue;
    if (c.window !== null && c.window !== at.window) continue;
    const rank = scopeRank(c, at);
    if (rank === null) continue;
    const key: [number, number, number, number] = [rank, c.window === null ? 1 : 0, -publishedMs(c), -c.version];
    if (!best || isBefore(key, c.id, best.key, best.c.id)) best = { c, key };
  }
  return best?.c ?? null;
}

function isBefore(a: readonly number[], aId: string, b: readonly number[], bId: string): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]!;
  }
  return aId > bId;
}
