import type { AnySql } from '@qiraa/db';
import { type QueuedSession, sessionServed } from '@qiraa/sessions';

/** The queue state while an online session is served: phase `session`, its progress; no closing question. */
export function sessionStateOf(q: QueuedSession, answered = q.answeredItemIds.length) {
  return {
    phase: 'session' as const,
    exit: { planned: 0, done: 0 },
    endReason: null,
    progress: { answered, planned: q.itemIds.length },
  };
}

/** next-item in the session phase: the session's current item, one try, no hint (null when the bank lost it). */
export async function sessionItemOf(sql: AnySql, q: QueuedSession) {
  const { item } = await sessionServed(sql, q);
  if (!item) return null;
  return {
    trainingSessionId: null,
    sessionId: q.sessionId,
    served: {
      item,
      step: { kind: 'target' as const, startsBridge: false, strategyPromptAr: null },
      attempt: 1,
      hintAr: null,
    },
    reason: null,
    training: sessionStateOf(q),
  };
}
