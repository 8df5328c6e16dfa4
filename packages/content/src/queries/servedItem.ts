import { type LanguageSafetyFilter, servedRewrite } from '@qiraa/language-safety';
import type { StudentItem } from './itemViews';

/**
 * A student item as served now: its stem and option texts through the language-safety rule set in force (checked
 * when written, and again here so a stricter version published later reaches stored items). A text the rules in
 * force refuse is served as the filter's growth-language rewrite: the option keys stay, so the answer is scored
 * as stored (docs/language-safety.md, "Served text"). `rewritten` lists what changed, for the log.
 */
export function servedStudentItem(
  item: StudentItem,
  filter: LanguageSafetyFilter,
): { item: StudentItem; rewritten: string[] } {
  const rewritten: string[] = [];
  const safe = (text: string, field: string) => {
    const out = servedRewrite(filter, text);
    if (out !== text) rewritten.push(field);
    return out;
  };
  return {
    item: {
      ...item,
      stemAr: safe(item.stemAr, 'stemAr'),
      options: item.options.map((o) => ({ ...o, textAr: safe(o.textAr, `options/${o.key}`) })),
    },
    rewritten,
  };
}
