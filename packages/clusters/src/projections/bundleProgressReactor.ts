import { type DecisionEvent, SKILL_STATUS_DECIDED } from '@qiraa/decisions';
import type { OfType } from '@qiraa/eventstore';
import { defineReaction } from '@qiraa/projections';
import { SESSION_SLOT_COMPLETED, type SessionEvent } from '@qiraa/sessions';
import { creditBundleProgress } from '../commands/creditBundleProgress';

/**
 * Bundle progress (BPR-01, BPR-02): a skill-status decision or a completed online session of a child with an
 * activated bundle may meet a step. A reaction (gamification is another context): each event credits its child
 * in gamification's own transaction; the engine event ids make a re-delivered event credit nothing twice, and a
 * failure is retried, then parked, never blocking the other children. Decisions taken before an activation
 * never meet a step, so a BundleAssigned needs no wake-up of its own.
 */
export const bundleProgressReactor = defineReaction<
  OfType<DecisionEvent, typeof SKILL_STATUS_DECIDED> | OfType<SessionEvent, typeof SESSION_SLOT_COMPLETED>
>({
  name: 'clusters_bundle_progress_reactor',
  handles: [SKILL_STATUS_DECIDED, SESSION_SLOT_COMPLETED],
  async handle(deps, event) {
    if (event.type === SESSION_SLOT_COMPLETED) {
      const completion = event.data;
      // The completion's own answers count even when the sessions read model has not caught up yet.
      await creditBundleProgress(deps, completion.studentId, { completions: [completion] });
      return;
    }
    await creditBundleProgress(deps, event.data.studentId);
  },
});
