import type { UnitOfWork } from '@qiraa/db';
import type { AppendResult, EventStore, ExpectedVersion, NewEvent } from '@qiraa/eventstore';
import { applyInline } from '@qiraa/projections';
import { ASSESSMENT_PROJECTIONS } from '../projections';

/**
 * The one way an assessment command writes: append to the attempt's stream inside the command's unit of
 * work and apply every assessment read model to what was appended (read-your-writes). A `duplicate` or a
 * `conflict` writes nothing and is returned for the command to answer.
 */
export async function recordEvidence(
  uow: UnitOfWork,
  store: EventStore,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion = 'any',
): Promise<AppendResult> {
  const result = await store.append(streamId, events, { uow, expected });
  if (result.kind === 'appended') {
    // Together on the unit of work's one connection: each projection's statements still run in its own order
    // (and its shared lock first, in the list's order), but none waits for another projection's round trips.
    await Promise.all(ASSESSMENT_PROJECTIONS.map((projection) => applyInline(uow, projection, result.events)));
  }
  return result;
}
