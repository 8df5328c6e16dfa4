import { isPersonName, normalizePersonName as normalizeName } from '@qiraa/kernel';

/**
 * The roster import's use of the one PersonName rule (packages/kernel/src/personName.ts, shared with the roster
 * routes and every notification payload): the stored form, or `null` when the name breaks the rule.
 */
export function normalizePersonName(raw: string): string | null {
  const name = normalizeName(raw);
  return isPersonName(name) ? name : null;
}
