import { commitAfter, type UnitOfWork } from '@qiraa/db';
import {
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type RecordedEvent,
  randomEventId,
  requireAppended,
  stampMetadata,
} from '@qiraa/eventstore';
import { applyInline } from '@qiraa/projections';
import { ASSESSMENT_PROJECTIONS } from '../projections';

/**
 * The one way an assessment command writes: append to the attempt's stream inside the command's unit of
 * work and apply every assessment read model to what was appended (read-your-writes). A `duplicate` or a
 * `conflict` writes nothing and is returned for the command to answer. `last`: nothing follows in the unit of
 * work (the append's outcome is the whole decision), so COMMIT is sent behind the projections' statements;
 * with an expected version on PostgreSQL, behind the append itself (a conflict then throws NOT_APPENDED).
 */
export async function recordEvidence(
  uow: UnitOfWork,
  store: EventStore,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion = 'any',
  options: { last?: boolean } = {},
): Promise<AppendResult> {
  if (options.last && typeof expected === 'bigint' && store.adapter === 'postgres' && uow.commitAfter) {
    return appendProjectCommit(uow, store, streamId, events, expected);
  }
  const result = await store.append(streamId, events, { uow, expected });
  if (result.kind === 'appended') {
    // Together on the unit of work's one connection: each projection's statements still run in its own order
    // (and its shared lock first, in the list's order), but none waits for another projection's round trips.
    const projected = Promise.all(
      ASSESSMENT_PROJECTIONS.map((projection) => applyInline(uow, projection, result.events)),
    );
    // `last`: the command writes nothing after this, so COMMIT goes out with the projections' statements.
    await (options.last ? commitAfter(uow, projected) : projected);
  }
  return result;
}

/**
 * `last` with an expected version on PostgreSQL: the append, the guard of migration 0046, every projection's
 * statements and COMMIT in one exchange. The projections read only each event's data and stream version,
 * both known before the append (the expected version plus its place). es_append answers a conflict or a
 * duplicate without an error; the guard then raises, the statements behind it fail and COMMIT ends in
 * ROLLBACK, so nothing is kept and the guard's error (SQLSTATE NOT_APPENDED) reaches the caller, which
 * decides again as on a conflict.
 */
async function appendProjectCommit(
  uow: UnitOfWork,
  store: EventStore,
  streamId: string,
  events: readonly NewEvent[],
  expected: bigint,
): Promise<AppendResult> {
  const ids = events.map((e) => e.eventId ?? randomEventId());
  const withIds = events.map((e, i) => ({ ...e, eventId: ids[i]! }));
  const predicted: RecordedEvent[] = withIds.map((e, i) => ({
    eventId: e.eventId,
    streamId,
    streamVersion: expected + BigInt(i + 1),
    type: e.type,
    schemaVersion: e.schemaVersion ?? 1,
    data: e.data ?? null,
    metadata: stampMetadata(e.metadata),
    createdAt: new Date(),
    position: '',
  }));
  const [result] = await commitAfter(
    uow,
    Promise.all([
      store.append(streamId, withIds, { uow, expected }),
      requireAppended(uow.sql, ids),
      ...ASSESSMENT_PROJECTIONS.map((projection) => applyInline(uow, projection, predicted)),
    ]),
  );
  return result;
}
