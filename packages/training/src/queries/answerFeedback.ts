import type { AnySql } from '@qiraa/db';
import type { SubmitOutcome } from '../commands/practiceQueue';
import { scaffoldPromptOf } from './trainingPool';

/** One wording for every child (first person plural, as the content pack): no gendered imperative. */
export const GENERIC_HINT_AR = 'نَقْرَأُ السُّؤَالَ مَرَّةً أُخْرَى عَلَى مَهْلٍ، ثُمَّ نَخْتَارُ.';
export const GENERIC_EXPLANATION_AR = 'نَتَعَلَّمُ مِنْ كُلِّ سُؤَالٍ، وَنُكْمِلُ مَعًا.';

export type HintKind = 'item' | 'light_hint' | 'clearer_hint' | 'generic';

/**
 * After a wrong first try the child gets a hint: the item's own hint (`item`); when the child already opened
 * it, the sub-skill's tier-2 strategy prompt (`clearer_hint`); an item without a hint gets the tier-1 prompt
 * (`light_hint`); with no prompt either, `generic`. After the last try (second try, or the closing question)
 * wrong (or a first try on which the day ended): the item's explanation. A correct answer gets neither.
 */
export async function feedbackOf(sql: AnySql, outcome: SubmitOutcome) {
  const { answer, item, slot, learner } = outcome;
  // The cap may end the day on a first try: no second try follows, so the explanation comes now.
  const lastTry = slot.attempt === 2 || slot.stepKind === 'exit' || outcome.fold.ended !== null;
  if (answer.correct) return { hint: null, explanation: null };
  if (lastTry) {
    return { hint: null, explanation: { textAr: item.explanation_ar ?? GENERIC_EXPLANATION_AR } };
  }
  let hint: { kind: HintKind; textAr: string } | null = null;
  if (item.hint_ar && !answer.hinted) hint = { kind: 'item', textAr: item.hint_ar };
  else {
    const tier = answer.hinted ? 2 : 1;
    const prompt = await scaffoldPromptOf(sql, learner.organizationId, [item.sub_skill_id], tier);
    if (prompt) hint = { kind: tier === 2 ? 'clearer_hint' : 'light_hint', textAr: prompt.promptAr };
  }
  return { hint: hint ?? { kind: 'generic' as const, textAr: GENERIC_HINT_AR }, explanation: null };
}
