import { answerSitting, servedPosition, startSitting } from '@qiraa/assessment';
import type { Sql } from '@qiraa/db';
import { profileOf, recomputeSkillStatus } from '@qiraa/decisions';
import type { EventStore } from '@qiraa/eventstore';
import type { Clock } from '@qiraa/kernel';

type Deps = { sql: Sql; store: EventStore; clock: Clock };

/** Re-diagnostics each linked child sits after the window sitting: pooled, enough items per sub-skill to decide. */
const RE_DIAGNOSTICS = 2;

/**
 * The demo parents' children sit two re-diagnostics later in BOY (through the sitting commands), so the window's
 * evidence decides every anchor domain and each child has an active profile: the parent portal then shows growth
 * and at-home suggestions instead of the safe halt. A child whose window sitting is not done is left as it is.
 * Returns how many children have an active profile.
 */
export async function seedDemoParents(
  deps: Deps,
  childIds: readonly number[],
  options: { answersAs?: number } = {},
): Promise<number> {
  let active = 0;
  for (const [index, studentId] of childIds.entries()) {
    // `answersAs`: the miss pattern of that child of the parents' list (a twin of its evidence).
    const child = options.answersAs ?? index;
    for (let n = 0; n < RE_DIAGNOSTICS; n++) {
      const started = await startSitting(deps, { studentId, mode: 're_diagnostic' }).catch(() => null);
      if (started?.kind !== 'started') break;
      let fold = started.fold;
      for (let i = 0; i < fold.started.plan.length; i++) {
        const position = servedPosition(fold);
        const question = fold.started.plan[position]!;
        const [item] = await deps.sql<{ correct_option_key: string; options: { key: string }[] }[]>`
          select correct_option_key, options from content_items where id = ${question.itemId}`;
        // Right on most questions, a different miss per child and sitting.
        const right = (position + child + n) % 4 !== 3;
        const answer = right
          ? item!.correct_option_key
          : item!.options.find((o) => o.key !== item!.correct_option_key)!.key;
        fold = await answerSitting(deps, fold.attemptId, { itemId: question.itemId, answer });
      }
    }
    await recomputeSkillStatus(deps, studentId);
    const profile = await profileOf(deps.sql, studentId, { window: 'BOY' });
    if (profile && profile.profileCode !== 'PR2-00') active++;
  }
  return active;
}
