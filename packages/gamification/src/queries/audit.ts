import type { EventStore, RecordedEvent } from '@qiraa/eventstore';
import { streams } from '../events';

export interface AuditEvent {
  eventId: string;
  /** 1-based position in its stream, as a string (a bigint in the store). */
  streamVersion: string;
  type: string;
  createdAt: string;
  data: unknown;
  /** causationId (a void's event id on a reversal), organizationId, actorUserId, as stored. */
  metadata: Record<string, unknown>;
}

export interface GamificationAudit {
  studentId: number;
  from: string | null;
  to: string | null;
  masteryEvents: AuditEvent[];
  xpTransactions: AuditEvent[];
  badgeAwards: AuditEvent[];
  badgeRescinds: AuditEvent[];
}

/**
 * The raw streams of one student, read from the event store (never from the read models), each in stream
 * order and kept to events created in [from, to) when those are given.
 */
export async function gamificationAudit(
  store: EventStore,
  studentId: number,
  window: { from?: Date | undefined; to?: Date | undefined } = {},
): Promise<GamificationAudit> {
  const from = window.from?.getTime() ?? Number.NEGATIVE_INFINITY;
  const to = window.to?.getTime() ?? Number.POSITIVE_INFINITY;
  const read = async (streamId: string): Promise<AuditEvent[]> =>
    (await store.readStream(streamId))
      .filter((e) => e.createdAt.getTime() >= from && e.createdAt.getTime() < to)
      .map((e: RecordedEvent) => ({
        eventId: e.eventId,
        streamVersion: e.streamVersion.toString(),
        type: e.type,
        createdAt: e.createdAt.toISOString(),
        data: e.data,
        metadata: e.metadata ?? {},
      }));
  const [masteryEvents, xpTransactions, badgeAwards, badgeRescinds] = await Promise.all([
    read(streams.mastery(studentId)),
    read(streams.xp(studentId)),
    read(streams.badgeAwards(studentId)),
    read(streams.badgeRescinds(studentId)),
  ]);
  return {
    studentId,
    from: window.from?.toISOString() ?? null,
    to: window.to?.toISOString() ?? null,
    masteryEvents,
    xpTransactions,
    badgeAwards,
    badgeRescinds,
  };
}
