import type { UnitOfWork } from '@qiraa/db';
import { randomEventId } from '../eventId';
import type { AppendResult, PipelinedAppend, PipelinedWrite, RecordedEvent } from '../types';
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

/** The version an event will get: from a bigint or `no_stream` expectation; 0n where the append decides it. */
function versionAfter(expected: PipelinedWrite['expected'], index: number): bigint {
  if (typeof expected === 'bigint') return expected + BigInt(index + 1);
  if (expected === 'no_stream') return BigInt(index + 1);
  return 0n;
}

/**
 * The PostgreSQL store's `appendPipelined`: the appends (one statement for several streams that expect no
 * version, `appendMany`) and the guard of migration 0046 sent without waiting for either answer, and the events
 * as the appends will record them (ids given, the write context stamped as the append stamps it), so the
 * caller's statements (inline projections, COMMIT) go out behind them in the same exchange. es_append answers a
 * conflict or a duplicate without an error; the guard then raises, everything pipelined behind it fails and
 * COMMIT ends in ROLLBACK.
 */
export function appendPipelined(
  append: (writes: readonly PipelinedWrite[], uow: UnitOfWork) => Promise<AppendResult[]>,
  writes: readonly PipelinedWrite[],
  uow: UnitOfWork,
  recordedAt: Date = new Date(),
): PipelinedAppend {
  const stamped = writes.map((w) => ({
    ...w,
    events: stampEvents(w.events.map((e) => ({ ...e, eventId: e.eventId ?? randomEventId() }))),
  }));
  const recorded: RecordedEvent[] = stamped.flatMap((w) =>
    w.events.map((e, i) => ({
      eventId: e.eventId!,
      streamId: w.streamId,
      streamVersion: versionAfter(w.expected, i),
      type: e.type,
      schemaVersion: e.schemaVersion ?? 1,
      data: e.data ?? null,
      metadata: e.metadata ?? {},
      createdAt: recordedAt,
      position: '',
    })),
  );
  const appended = append(stamped, uow).then((results) =>
    results.map((result, i) => {
      if (result.kind !== 'appended') throw new NotAppendedError(stamped[i]!.streamId, result.kind);
      return result;
    }),
  );
  const guarded = requireAppended(
    uow.sql,
    recorded.map((e) => e.eventId),
  );
  return { events: recorded, written: Promise.all([appended, guarded]).then(([results]) => results) };
}
