import type { UnitOfWork } from '@qiraa/db';
import { randomEventId } from '../eventId';
import type { AppendResult, NewEvent, PipelinedAppend, RecordedEvent } from '../types';
import { stampEvents } from '../writeContext';
import { NOT_APPENDED, requireAppended } from './requireAppended';

/** An append that was not stored as a whole: a conflict or a duplicate (the command decides again). */
export class NotAppendedError extends Error {
  readonly code = NOT_APPENDED;
  constructor(streamId: string, kind: string) {
    super(`${streamId}: ${kind}, not appended`);
    this.name = 'NotAppendedError';
  }
}

/**
 * The PostgreSQL store's `appendPipelined`: the append and the guard of migration 0046 sent without waiting
 * for either answer, and the events as the append will record them (versions from `expected`, the write
 * context stamped as the append stamps it), so the caller's statements (inline projections, COMMIT) go out
 * behind them in the same exchange. es_append answers a conflict or a duplicate without an error; the guard
 * then raises, everything pipelined behind it fails and COMMIT ends in ROLLBACK.
 */
export function appendPipelined(
  append: (
    streamId: string,
    events: readonly NewEvent[],
    uow: UnitOfWork,
    expected: bigint | 'no_stream',
  ) => Promise<AppendResult>,
  streamId: string,
  events: readonly NewEvent[],
  uow: UnitOfWork,
  expected: bigint | 'no_stream',
): PipelinedAppend {
  const stamped = stampEvents(events.map((e) => ({ ...e, eventId: e.eventId ?? randomEventId() })));
  const ids = stamped.map((e) => e.eventId!);
  const from = expected === 'no_stream' ? 0n : expected;
  const recorded: RecordedEvent[] = stamped.map((e, i) => ({
    eventId: e.eventId!,
    streamId,
    streamVersion: from + BigInt(i + 1),
    type: e.type,
    schemaVersion: e.schemaVersion ?? 1,
    data: e.data ?? null,
    metadata: e.metadata ?? {},
    createdAt: new Date(),
    position: '',
  }));
  const appended = append(streamId, stamped, uow, expected).then((result) => {
    if (result.kind !== 'appended') throw new NotAppendedError(streamId, result.kind);
    return result;
  });
  const guarded = requireAppended(uow.sql, ids);
  return { events: recorded, written: Promise.all([appended, guarded]).then(([result]) => result) };
}
