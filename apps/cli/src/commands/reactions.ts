import {
  findReaction,
  listParked,
  type Reaction,
  reactionStatus,
  retryParked,
  UnknownReactionError,
} from '@qiraa/projections';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `qiraa reactions status`: each reaction's checkpoint, lag and parked count, then every parked event. */
export async function reactionsStatusCommand(options: { json?: boolean }): Promise<void> {
  await withRuntime(async ({ sql, store, reactor }) => {
    const statuses = await reactionStatus({ sql, store }, reactor.reactions);
    const parked = await listParked(sql);
    if (options.json) {
      console.log(
        JSON.stringify({ reactions: statuses, parked }, (_, v) => (typeof v === 'bigint' ? Number(v) : v), 2),
      );
      return;
    }
    console.table(
      statuses.map((s) => ({
        reaction: s.name,
        checkpoint: s.checkpoint ?? '(start)',
        lag: s.lag,
        handled: s.eventsHandled,
        parked: s.parked,
        state: s.parked > 0 ? 'parked events' : s.lag === 0 ? 'current' : 'behind',
      })),
    );
    if (parked.length === 0) {
      console.log('no parked events');
      return;
    }
    console.log(`${parked.length} parked event(s); re-drive with \`qiraa reactions retry <reaction> [--event <id>]\`:`);
    console.table(
      parked.map((p) => ({
        reaction: p.reaction,
        event: p.eventId,
        type: p.eventType,
        position: p.position,
        attempts: p.attempts,
        parkedAt: p.parkedAt.toISOString(),
        error: p.error.length > 100 ? `${p.error.slice(0, 100)}…` : p.error,
      })),
    );
  });
}

/**
 * `qiraa reactions retry <name> [--event <id>]`: handles the reaction's parked events again (with its retries);
 * one line per event; exit 1 when any is still parked afterwards, so a script sees the cause is not fixed.
 */
export async function reactionsRetryCommand(name: string, options: { event?: string }): Promise<void> {
  if (options.event !== undefined && !UUID.test(options.event))
    throw new CliError('--event must be an event id (a UUID)', 2);
  await withRuntime(async ({ sql, store, reactor }) => {
    let reaction: Reaction;
    try {
      reaction = findReaction(reactor.reactions, name);
    } catch (error) {
      if (error instanceof UnknownReactionError) throw new CliError(error.message, 2);
      throw error;
    }
    const results = await retryParked({ sql, store }, reaction, { eventId: options.event });
    if (results.length === 0) {
      if (options.event) throw new CliError(`no parked event ${options.event} of ${name}`);
      console.log(`${name}: no parked events`);
      return;
    }
    for (const r of results) {
      console.log(`${r.outcome}\t${r.eventId}\t${r.eventType}${r.error ? `\t${r.error}` : ''}`);
    }
    const left = results.filter((r) => r.outcome !== 'delivered').length;
    console.log(`${name}: ${results.length - left} delivered, ${left} still parked`);
    if (left > 0) throw new CliError(`${left} event(s) still parked; see qiraa reactions status`);
  });
}
