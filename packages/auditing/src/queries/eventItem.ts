import type { RecordedEvent } from '@qiraa/eventstore';

/** One event as the auditor routes answer it (the item shape). */
export interface EventItem {
  eventId: string;
  streamId: string;
  version: number;
  /** Position in the whole log (`xid:global`, commit order), usable as `after`. */
  position: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recordedAt: string;
  /** Not in the HTTP answers (their schema drops it); the CLI's NDJSON prints it. */
  schemaVersion?: number;
}

export const toEventItem = (event: RecordedEvent): EventItem => ({
  eventId: event.eventId,
  streamId: event.streamId,
  version: Number(event.streamVersion),
  position: event.position,
  type: event.type,
  data: event.data,
  metadata: event.metadata ?? {},
  recordedAt: event.createdAt.toISOString(),
  schemaVersion: event.schemaVersion,
});
