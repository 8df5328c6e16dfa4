import { writeStreams } from '@qiraa/command-kit';
import type { UnitOfWork } from '@qiraa/db';
import type { AppendResult, EventStore, ExpectedVersion, NewEvent } from '@qiraa/eventstore';
import { assessmentCommands } from '../commandContext';

/**
 * An assessment write whose caller decided the events itself (a test fixture; the commands go through
 * `handleCommand`): the command kit's write step on the attempt's stream in the caller's unit of work, with
 * every assessment read model applied to what was appended (read-your-writes). A `duplicate` or a `conflict` writes nothing and is returned for
 * the command to answer. `last`: nothing follows in the unit of work, so COMMIT goes out behind the
 * projections' statements; with an expected version, behind the append itself where the store can guard it
 * (a conflict then throws NOT_APPENDED, `writeStreams`' `pipelined`).
 */
export async function recordEvidence(
  uow: UnitOfWork,
  store: EventStore,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion = 'any',
  options: { last?: boolean } = {},
): Promise<AppendResult> {
  const pipelined = options.last === true && typeof expected === 'bigint';
  const [result] = await writeStreams(store, uow, assessmentCommands, [{ streamId, events, expected }], {
    pipelined,
    last: options.last,
  });
  return result!;
}
