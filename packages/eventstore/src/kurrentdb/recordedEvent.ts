import type { AllStreamResolvedEvent, EventData, JSONType, ResolvedEvent } from '@eventstore/db-client';
import { jsonEvent } from '@eventstore/db-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../types';
import { encodeCheckpoint } from './checkpoint';

/** The port's fields that KurrentDB has no slot for travel in the event's metadata JSON. */
export type Envelope = {
  schemaVersion: number;
  /** When the append was made; KurrentDB's own `created` is only the fallback, for events other tools wrote. */
  createdAt: string;
  /** The append call that wrote the event: tells a fresh write from the server replaying an idempotent one. */
  appendId: string;
  metadata: EventMetadata;
};

export function toEventData(event: NewEvent, id: string, createdAt: Date, appendId: string): EventData {
  const envelope: Envelope = {
    schemaVersion: event.schemaVersion ?? 1,
    createdAt: createdAt.toISOString(),
    appendId,
    metadata: event.metadata ?? {},
  };
  // The client only JSON.stringifies data, so any JSON value is safe despite JSONType; undefined becomes null as in PG.
  return jsonEvent({ id, type: event.type, data: (event.data ?? null) as JSONType, metadata: envelope });
}

export function readEnvelope(metadata: unknown): Envelope | null {
  if (!isPlainObject(metadata)) return null;
  const { schemaVersion, createdAt, appendId, metadata: inner } = metadata;
  if (typeof schemaVersion !== 'number' || typeof createdAt !== 'string' || !isPlainObject(inner)) return null;
  return { schemaVersion, createdAt, appendId: typeof appendId === 'string' ? appendId : '', metadata: inner };
}

/** Null for a resolved event without a record (a link whose target was deleted). */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event) return null;
  const commit = event.position?.commit ?? resolved.commitPosition;
  if (commit === undefined) {
    throw new Error(`KurrentDB sent event ${event.id} without a log position; KurrentDB/EventStoreDB 22.6+ is needed`);
  }
  // Events written by other tools have no envelope: their metadata is taken as it is.
  const envelope = readEnvelope(event.metadata);
  return {
    eventId: event.id,
    streamId: event.streamId,
    streamVersion: event.revision + 1n,
    type: event.type,
    schemaVersion: envelope?.schemaVersion ?? 1,
    data: event.data,
    metadata: envelope?.metadata ?? (isPlainObject(event.metadata) ? event.metadata : {}),
    createdAt: envelope ? new Date(envelope.createdAt) : event.created,
    position: encodeCheckpoint({ commit, prepare: event.position?.prepare ?? commit }),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
