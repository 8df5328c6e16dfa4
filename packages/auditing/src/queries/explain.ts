import type { AnySql } from '@qiraa/db';
import { latestSkillDecision } from '@qiraa/decisions';
import type { EventStore } from '@qiraa/eventstore';
import { activeBadgeCodesOf, xpBalanceOf } from '@qiraa/gamification';
import { validationFailed } from '@qiraa/http-kit';
import { currentTrainingLevel } from '@qiraa/training';
import { type EventItem, toEventItem } from './eventItem';

export const EXPLAINED = ['xpBalance', 'badges', 'skillStatus', 'trainingLevel'] as const;
export type Explained = (typeof EXPLAINED)[number];

export interface Explanation {
  what: Explained;
  value: unknown;
  /** For xpBalance each event carries `delta`, and the deltas sum to `value`. */
  events: Array<EventItem & { delta?: number }>;
}

/** One top-level field of any event's data (an auditor's view spans every context's events), or undefined. */
const fieldOf = (data: unknown, key: string): unknown =>
  typeof data === 'object' && data !== null ? Reflect.get(data, key) : undefined;

/**
 * A derived value as its read model holds it, beside the events that produced it (docs/auditing.md). The
 * read models are the gamification, decisions and training contexts', read through their read APIs; the
 * streams are those contexts' per-student streams (`xp-`, `badgeaward-`, `badgerescind-`, `decision-`,
 * `traininglevel-`). A projection that lags shows as a value that its events do not (yet) add up to.
 */
export async function explain(
  deps: { sql: AnySql; store: EventStore },
  studentId: number,
  what: Explained,
  subSkillId: string | undefined,
): Promise<Explanation> {
  const { sql, store } = deps;
  switch (what) {
    case 'xpBalance': {
      const balance = await xpBalanceOf(sql, studentId);
      const events = (await store.readStreamsInLogOrder([`xp-${studentId}`])).map((e) => ({
        ...toEventItem(e),
        delta: Number(fieldOf(e.data, 'amount') ?? 0),
      }));
      return { what, value: balance, events };
    }
    case 'badges': {
      const codes = await activeBadgeCodesOf(sql, studentId);
      const events = await store.readStreamsInLogOrder([`badgeaward-${studentId}`, `badgerescind-${studentId}`]);
      return { what, value: codes, events: events.map(toEventItem) };
    }
    case 'skillStatus': {
      const decision = await latestSkillDecision(sql, studentId, required(subSkillId));
      if (!decision) return { what, value: null, events: [] };
      // The deciding event, then the evidence it weighed and the voids it honoured, in commit order.
      const events = await store.readEventsById([
        decision.decisionId,
        ...decision.evidenceEventIds,
        ...decision.voidEventIds,
      ]);
      return { what, value: decision.status, events: events.map(toEventItem) };
    }
    case 'trainingLevel': {
      const skill = required(subSkillId);
      const level = await currentTrainingLevel(sql, studentId, skill);
      const events = (await store.readStreamsInLogOrder([`traininglevel-${studentId}`])).filter(
        (e) => fieldOf(e.data, 'skillId') === skill,
      );
      return { what, value: level, events: events.map(toEventItem) };
    }
  }
}

function required(subSkillId: string | undefined): string {
  if (!subSkillId)
    throw validationFailed([{ field: 'subSkillId', issue: 'required for skillStatus and trainingLevel' }]);
  return subSkillId;
}
