import type { EventStoreDBClient } from '@eventstore/db-client';
import type { FieldedEvent, FieldKind } from '../auditReads';
import { readStream } from './readStream';

/** A JSON value as `data->>key` and its cast would give it on PostgreSQL. */
function asKind(value: unknown, kind: FieldKind): string | number | bigint | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (kind === 'int') return Number.parseInt(text, 10);
  if (kind === 'bigint') return BigInt(text);
  return text;
}

/** `EventStore.readStreamFields` over whole streams: KurrentDB has no projection of a JSON body on the server. */
export async function readStreamFields(
  client: EventStoreDBClient,
  streamIds: readonly string[],
  options: { types?: readonly string[]; fields: Readonly<Record<string, FieldKind>> },
): Promise<FieldedEvent[]> {
  const ordered = [...new Set(streamIds)].sort();
  const streams = await Promise.all(ordered.map((id) => readStream(client, id)));
  const types = options.types?.length ? new Set(options.types) : null;
  return streams.flat().flatMap((event) => {
    if (types && !types.has(event.type)) return [];
    const data: FieldedEvent['data'] = {};
    for (const [key, kind] of Object.entries(options.fields)) {
      data[key] = asKind(typeof event.data === 'object' && event.data ? Reflect.get(event.data, key) : undefined, kind);
    }
    return [{ streamId: event.streamId, type: event.type, createdAt: event.createdAt, data }];
  });
}
