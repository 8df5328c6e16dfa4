import { type EventStoreDBClient, WrongExpectedVersionError } from '@eventstore/db-client';
import { randomEventId } from '../eventId';
import type { AppendResult, ExpectedVersion, NewEvent, RecordedEvent } from '../types';
import { toExpectedRevision, toVersion } from './expectedRevision';
import { streamVersion } from './readStream';
import { readEnvelope, toEventData, toRecordedEvent } from './recordedEvent';

/**
 * Appends and reads the written events back: the append answer has neither per-event positions nor a
 * sign of an idempotent replay (the server answers a re-sent batch with the original revisions). The
 * append id each event carries tells the two apart.
 */
export async function appendToStream(
  client: EventStoreDBClient,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<AppendResult> {
  if (events.length === 0) throw new RangeError('append needs at least one event');
  const appendId = randomEventId();
  const createdAt = new Date();
  const data = events.map((e) => toEventData(e, e.eventId ?? randomEventId(), createdAt, appendId));
  let lastRevision: bigint;
  try {
    const result = await client.appendToStream(streamId, data, { expectedRevision: toExpectedRevision(expected) });
    lastRevision = result.nextExpectedRevision;
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    return { kind: 'conflict', expected, actual: toVersion(error.actualVersion) };
  }

  const count = BigInt(events.length);
  const read = client.readStream(streamId, { fromRevision: lastRevision - count + 1n, maxCount: count });
  const recorded: RecordedEvent[] = [];
  let ours = 0;
  for await (const resolved of read) {
    if (readEnvelope(resolved.event?.metadata)?.appendId === appendId) ours++;
    const event = toRecordedEvent(resolved);
    if (event) recorded.push(event);
  }
  if (ours === 0) return { kind: 'duplicate', streamVersion: await streamVersion(client, streamId) };
  if (ours !== events.length) {
    throw new Error(`append to ${streamId} succeeded but ${events.length - ours} of its events could not be read back`);
  }
  return { kind: 'appended', streamVersion: lastRevision + 1n, events: recorded };
}
