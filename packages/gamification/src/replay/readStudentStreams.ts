import type { EventStore } from '@qiraa/eventstore';
import { MASTERY_EVENT_RECORDED, MASTERY_EVENT_REVERSED, streams } from '../events';
import type { StreamEvent, StudentStreams } from './replayStudent';

/** The data fields the fold reads of a mastery event, and of a badge award or rescind. */
const MASTERY_FIELDS = {
  masteryEventId: 'text',
  sourceKind: 'text',
  schoolDay: 'text',
  sessionId: 'text',
  ruleVersion: 'int',
} as const;
const BADGE_FIELDS = { studentBadgeId: 'bigint', triggeringMasteryEventId: 'text' } as const;

/**
 * The three streams a replay folds, each in stream order, through the store's field read
 * (`EventStore.readStreamFields`: on PostgreSQL only the fields the fold uses, as plain columns, no JSON document
 * parsed per event). Two reads sent at once: the mastery stream (thousands of events: its recorded and reversed
 * events only) and the two badge streams (a few events).
 */
export async function readStudentStreams(store: EventStore, studentId: number): Promise<StudentStreams> {
  const ids = {
    mastery: streams.mastery(studentId),
    badgeAwards: streams.badgeAwards(studentId),
    badgeRescinds: streams.badgeRescinds(studentId),
  };
  const [mastery, badges] = await Promise.all([
    store.readStreamFields([ids.mastery], {
      types: [MASTERY_EVENT_RECORDED, MASTERY_EVENT_REVERSED],
      fields: MASTERY_FIELDS,
    }),
    store.readStreamFields([ids.badgeAwards, ids.badgeRescinds], { fields: BADGE_FIELDS }),
  ]);
  const badgesOf = (stream: string): StreamEvent[] =>
    badges
      .filter((e) => e.streamId === stream)
      .map((e) => ({
        type: e.type,
        createdAt: e.createdAt,
        data: {
          ...e.data,
          studentBadgeId: e.data.studentBadgeId === null ? null : Number(e.data.studentBadgeId),
        },
      }));
  return {
    mastery: mastery.map((e) => ({ type: e.type, createdAt: e.createdAt, data: e.data })),
    badgeAwards: badgesOf(ids.badgeAwards),
    badgeRescinds: badgesOf(ids.badgeRescinds),
  };
}
