import { type NewEvent, type RecordedEvent, randomEventId } from '@qiraa/eventstore';

let position = 0;

/**
 * Events as a stream would hold them (1-based versions in the given order, ids kept or made up, positions
 * increasing across calls): the `given` of a decider or projection spec, without a store.
 */
export function recordedEvents(streamId: string, events: readonly NewEvent[], from = 1n): RecordedEvent[] {
  return events.map((e, i) => ({
    eventId: e.eventId ?? randomEventId(),
    streamId,
    streamVersion: from + BigInt(i),
    type: e.type,
    schemaVersion: e.schemaVersion ?? 1,
    data: e.data,
    metadata: e.metadata ?? {},
    createdAt: new Date(0),
    position: String(++position),
  }));
}
