import type { RecordedEvent } from '@qiraa/eventstore';
import { loadConfig } from '@qiraa/runtime';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';
import { filteredTail } from './eventsAudit';

/** One JSON object per line: the auditor's raw view, bigint versions as strings. */
export function toNdjson(event: RecordedEvent): string {
  return JSON.stringify({
    streamId: event.streamId,
    streamVersion: event.streamVersion.toString(),
    position: event.position,
    eventId: event.eventId,
    type: event.type,
    schemaVersion: event.schemaVersion,
    createdAt: event.createdAt.toISOString(),
    data: event.data,
    metadata: event.metadata,
  });
}

const positiveInt = (value: string, flag: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} must be a positive integer`, 2);
  return n;
};

export async function eventsReadCommand(stream: string, options: { from: string; limit?: string }): Promise<void> {
  const from = BigInt(positiveInt(options.from, '--from'));
  const limit = options.limit ? positiveInt(options.limit, '--limit') : undefined;
  await withRuntime(async ({ store }) => {
    const events = await store.readStream(stream, { from, limit });
    if (events.length === 0 && from === 1n) throw new CliError(`stream "${stream}" has no events`);
    for (const event of events) process.stdout.write(`${toNdjson(event)}\n`);
  });
}

/** The `position` of a printed event: `xid:global` in the PostgreSQL store, a commit position in KurrentDB. */
function checkpoint(value: string): string {
  const kurrent = loadConfig().eventstoreUrl !== undefined;
  if ((kurrent ? /^\d+$/ : /^\d+:\d+$/).test(value)) return value;
  throw new CliError(
    `--after must be the position of an event as \`events tail\` prints it (${kurrent ? 'digits' : 'like 1234:56'}), ` +
      `not "${value}"`,
    2,
  );
}

export async function eventsTailCommand(options: {
  after?: string;
  type?: string[];
  follow?: boolean;
  limit?: string;
  from?: string;
  to?: string;
  category?: string;
  org?: string;
}): Promise<void> {
  const limit = options.limit ? positiveInt(options.limit, '--limit') : Number.POSITIVE_INFINITY;
  const filtered = options.from ?? options.to ?? options.category ?? options.org;
  if (loadConfig().eventstoreUrl === undefined) {
    // PostgreSQL: the auditor routes' query (filters by recording time, category and organization).
    const { from, to, category, org, after, type, follow } = options;
    await filteredTail(
      { after, type: type?.length ? type : undefined, from, to, category, org, follow, limit },
      (line) => process.stdout.write(`${line}\n`),
    );
    return;
  }
  // Not a usage error: the command line is fine, the installation (EVENTSTORE_URL) cannot answer it (exit 1,
  // as the other PostgreSQL-only reads of eventsAudit.ts).
  if (filtered !== undefined)
    throw new CliError('--from, --to, --category and --org need the PostgreSQL event store (EVENTSTORE_URL is set)');
  const start = options.after === undefined ? null : checkpoint(options.after);
  await withRuntime(async ({ store }) => {
    let after = start;
    let written = 0;
    const types = options.type?.length ? options.type : undefined;
    for (;;) {
      const batch = await store.readAll({ after, limit: 500, types });
      for (const event of batch.events) {
        if (written >= limit) return;
        process.stdout.write(`${toNdjson(event)}\n`);
        written++;
      }
      after = batch.checkpoint;
      if (batch.caughtUp) {
        if (!options.follow) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  });
}
