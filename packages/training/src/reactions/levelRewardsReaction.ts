import type { OfType } from '@qiraa/eventstore';
import { recordMasteryEvents } from '@qiraa/gamification';
import { defineReaction } from '@qiraa/projections';
import { TRAINING_LEVEL_MOVED, type TrainingEvent } from '../events';

type MovedEvent = OfType<TrainingEvent, typeof TRAINING_LEVEL_MOVED>;

/**
 * Training → gamification, as a reaction (issue 22: every effect of one context on another): a level moved up
 * records the `scaffold_tier_step_up` mastery event (the training level is the scaffold tier,
 * docs/literacy-core.md) in gamification's own transaction, caused by the move, with the move id as engine
 * event id, so a re-delivery or a `qiraa reactions retry` credits once. The mastery event's session is the
 * training day of the answer that moved the level (the last answer the rule read), as when the credit was
 * written in the answer's transaction. A move down or a rebaseline earns nothing.
 */
export const levelRewardsReaction = defineReaction<MovedEvent>({
  name: 'training_level_rewards_reaction',
  handles: [TRAINING_LEVEL_MOVED],
  async handle(deps, event) {
    const moved = event.data;
    if (moved.direction !== 'up') return;
    const lastAnswerId = moved.evidenceAnswerIds.at(-1);
    const [answer] = lastAnswerId
      ? await deps.sql<{ day_id: string }[]>`select day_id from trn_answers where answer_id = ${lastAnswerId}`
      : [];
    // Not there yet (the answers' read model being rebuilt): thrown, so the reaction tries again, then parks.
    if (!answer) throw new Error(`training level move ${moved.moveId}: its last answer ${lastAnswerId} is not stored`);
    await recordMasteryEvents(deps, [
      {
        engineEventId: moved.moveId,
        causationEventId: event.eventId,
        studentId: moved.studentId,
        sourceKind: 'scaffold_tier_step_up',
        skillId: moved.skillId,
        measureCode: moved.measureCode,
        schoolDay: moved.since,
        occurredAt: moved.at,
        sessionId: answer.day_id,
      },
    ]);
  },
});
