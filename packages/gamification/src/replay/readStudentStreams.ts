import type { AnySql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { streams } from '../events';
import type { StreamEvent, StudentStreams } from './replayStudent';

/**
 * The three streams a replay folds, in one query on the PostgreSQL event store (its primary key
 * (stream_id, stream_version) gives each stream in order), reading only the fields the fold uses. Another
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
  // Only the fields the fold reads, as plain columns: no JSON document to parse per event.
  const rows = await sql<Row[]>`
    select stream_id, event_type, created_at,
      data->>'masteryEventId' as mastery_event_id, data->>'sourceKind' as source_kind,
      data->>'schoolDay' as school_day, data->>'sessionId' as session_id,
      (data->>'ruleVersion')::int as rule_version, (data->>'studentBadgeId')::int8 as student_badge_id,
      data->>'triggeringMasteryEventId' as triggering_mastery_event_id
    from es_events
    where stream_id in (${ids.mastery}, ${ids.badgeAwards}, ${ids.badgeRescinds})
    order by stream_id, stream_version`;
  const of = (stream: string): StreamEvent[] =>
    rows
      .filter((r) => r.stream_id === stream)
      .map((r) => ({
        type: r.event_type,
        createdAt: r.created_at,
        data: {
          masteryEventId: r.mastery_event_id,
          sourceKind: r.source_kind,
          schoolDay: r.school_day,
          sessionId: r.session_id,
          ruleVersion: r.rule_version,
          studentBadgeId: r.student_badge_id === null ? null : Number(r.student_badge_id),
          triggeringMasteryEventId: r.triggering_mastery_event_id,
        },
      }));
  return { mastery: of(ids.mastery), badgeAwards: of(ids.badgeAwards), badgeRescinds: of(ids.badgeRescinds) };
}

interface Row {
  stream_id: string;
  event_type: string;
  created_at: Date;
  mastery_event_id: string | null;
  source_kind: string | null;
  school_day: string | null;
  session_id: string | null;
  rule_version: number | null;
  student_badge_id: bigint | null;
  triggering_mastery_event_id: string | null;
}
