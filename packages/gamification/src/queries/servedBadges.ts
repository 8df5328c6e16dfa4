import { type LanguageSafetyFilter, type LanguageSafetyTier, servedRewrite } from '@qiraa/language-safety';

/** What a served view carries besides itself: the fields the filter rewrote, for the log. */
export interface Served<T> {
  value: T;
  rewritten: string[];
}

/**
 * Badge names and descriptions as served now, through the language-safety rule set in force (docs/language-safety.md,
 * "Served text"). They are ours, in the gamification rule sets (`rules/ruleSetV*.ts`), and tested to pass
 * (`badgeGender.int.spec.ts`); but an award keeps its rule version for good, so a stricter language rule set
 * published later must still reach a badge awarded before it. A refused text is served as the filter's rewrite:
 * a badge has no generic form, and a badge without its name would puzzle the child. Verdicts are remembered per
 * rule-set version (`checkServed`). Nothing stored changes. The child and the staff read the general tier, a
 * parent the parent tier. `rewritten` names each changed field (`/badges/<i>/nameAr`), a text to revise.
 */
export function servedBadges<B extends { nameAr: string; descriptionAr: string }>(
  badges: readonly B[],
  filter: LanguageSafetyFilter,
  tier: LanguageSafetyTier = 'general',
): Served<B[]> {
  const rewritten: string[] = [];
  const safe = (text: string, path: string) => {
    const out = servedRewrite(filter, text, tier);
    if (out !== text) rewritten.push(path);
    return out;
  };
  const value = badges.map((b, i) => ({
    ...b,
    nameAr: safe(b.nameAr, `/badges/${i}/nameAr`),
    descriptionAr: safe(b.descriptionAr, `/badges/${i}/descriptionAr`),
  }));
  return { value, rewritten };
}
