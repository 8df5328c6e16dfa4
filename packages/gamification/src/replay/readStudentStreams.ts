import type { AnySql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { streams } from '../events';
import type { StreamEvent, StudentStreams } from './replayStudent';

/**
 * The three streams a replay folds, in one query on the PostgreSQL event store (its primary key
 * (stream_id, stream_version) gives each stream in order), reading only what the fold uses. Another
 * adapter reads them through the port.
 */
export async function readStudentStreams(sql: AnySql, store: EventStore, studentId: number): Promise<StudentStreams> {
  const ids = {
    mastery: streams.mastery(studentId),
    badgeAwards: streams.badgeAwards(studentId),
    badgeRescinds: streams.badgeRescinds(studentId),
  };
  if (store.adapter !== 'postgres') {
    const [mastery, badgeAwards, badgeRescinds] = await Promise.all([
      store.readStream(ids.mastery),
      store.readStream(ids.badgeAwards),
      store.readStream(ids.badgeRescinds),
    ]);
    return { mastery, badgeAwards, badgeRescinds };
  }
  const rows = await sql<{ stream_id: string; type: string; created_at: Date; data: unknown }[]>`
    select stream_id, event_type as type, created_at, data from es_events
    where stream_id in (${ids.mastery}, ${ids.badgeAwards}, ${ids.badgeRescinds})
    order by stream_id, stream_version`;
  const of = (stream: string): StreamEvent[] =>
    rows.filter((r) => r.stream_id === stream).map((r) => ({ type: r.type, createdAt: r.created_at, data: r.data }));
  return { mastery: of(ids.mastery), badgeAwards: of(ids.badgeAwards), badgeRescinds: of(ids.badgeRescinds) };
}
