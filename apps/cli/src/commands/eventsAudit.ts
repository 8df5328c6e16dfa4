import { describeBreak, eventWithCauses, logEvents, studentStreams, verifyLog } from '@qiraa/auditing';
import type { Runtime } from '@qiraa/runtime';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

/**
 * The auditor routes' CLI mirrors (docs/auditing.md). The CLI runs with database access, so it reads every
 * organization unless `--org` narrows it; it writes no `stream_read` entry (the routes do, for HTTP readers).
 * They read the PostgreSQL tables the routes read (the index, the chain): not available on KurrentDB.
 */
function postgresOnly(runtime: Runtime): void {
  if (!runtime.store.logInDatabase) {
    throw new CliError('this command reads the PostgreSQL event store (EVENTSTORE_URL is set)');
  }
}

const positiveId = (value: string, flag: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new CliError(`${flag} must be a positive integer`, 2);
  return n;
};

const instant = (value: string | undefined, flag: string): Date | undefined => {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
    throw new CliError(`${flag} must be an ISO 8601 instant like 2026-11-01T08:00:00Z`, 2);
  }
  return at;
};

const POSITION = /^\d{1,20}:\d{1,19}$/;

/** `qiraa events streams --student <id>`: every stream about the child, one JSON object per line. */
export async function eventsStreamsCommand(options: { student: string; org?: string }): Promise<void> {
  const studentId = positiveId(options.student, '--student');
  await withRuntime(async (runtime) => {
    postgresOnly(runtime);
    let cursor: string | undefined;
    do {
      const page = await studentStreams(runtime.store, {
        studentId,
        organizationId: options.org ?? null,
        limit: 500,
        cursor,
      });
      for (const item of page.items) process.stdout.write(`${JSON.stringify(item)}\n`);
      cursor = page.next ?? undefined;
    } while (cursor);
  });
}

/** `qiraa events get <eventId>`: the event, what caused it and what it caused, as one JSON object. */
export async function eventsGetCommand(eventId: string, options: { org?: string }): Promise<void> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(eventId)) {
    throw new CliError(`"${eventId}" is not an event id (a UUID)`, 2);
  }
  await withRuntime(async (runtime) => {
    postgresOnly(runtime);
    try {
      const answer = await eventWithCauses(runtime.store, eventId, options.org ?? null);
      process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    } catch (error) {
      if ((error as { status?: number }).status === 404) throw new CliError(`event ${eventId} not found`);
      throw error;
    }
  });
}

export interface FilteredTailOptions {
  after?: string;
  type?: string[];
  from?: string;
  to?: string;
  category?: string;
  org?: string;
  limit?: number;
  follow?: boolean;
}

/** `qiraa events tail` on PostgreSQL: the global log in commit order through the routes' query. */
export async function filteredTail(options: FilteredTailOptions, print: (line: string) => void): Promise<void> {
  if (options.after !== undefined && !POSITION.test(options.after)) {
    throw new CliError(
      `--after must be the position of an event as \`events tail\` prints it (like 1234:56), not "${options.after}"`,
      2,
    );
  }
  const from = instant(options.from, '--from');
  const to = instant(options.to, '--to');
  if (options.category !== undefined && !/^[a-z][a-z0-9_]{0,63}$/.test(options.category)) {
    throw new CliError('--category is a stream category: lower-case letters, digits and _ (e.g. xp, mastery)', 2);
  }
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  await withRuntime(async (runtime) => {
    postgresOnly(runtime);
    let cursor: string | undefined;
    let after = options.after;
    let written = 0;
    for (;;) {
      const page = await logEvents(runtime.store, {
        organizationId: options.org ?? null,
        after,
        types: options.type,
        category: options.category,
        from,
        to,
        limit: 500,
        cursor,
      });
      for (const item of page.items) {
        if (written >= limit) return;
        print(
          JSON.stringify({
            streamId: item.streamId,
            streamVersion: String(item.version),
            position: item.position,
            eventId: item.eventId,
            type: item.type,
            schemaVersion: item.schemaVersion,
            createdAt: item.recordedAt,
            data: item.data,
            metadata: item.metadata,
          }),
        );
        written++;
      }
      if (page.next) {
        cursor = page.next;
        continue;
      }
      if (!options.follow) return;
      const lastItem = page.items[page.items.length - 1];
      if (lastItem) after = lastItem.position;
      cursor = undefined;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
}

/**
 * `qiraa events verify [--org <id>] [--since <position>]`: recomputes the hash chain; exit 1 naming the first
 * broken event. A whole run (no flag) that finds nothing records a checkpoint of the running digest.
 */
export async function eventsVerifyCommand(options: { org?: string; since?: string }): Promise<void> {
  if (options.since !== undefined && !POSITION.test(options.since)) {
    throw new CliError('--since must be the position of an event as `events tail` prints it (like 1234:56)', 2);
  }
  await withRuntime(async (runtime) => {
    postgresOnly(runtime);
    const whole = options.org === undefined && options.since === undefined;
    const report = await verifyLog(runtime.store, {
      organizationId: options.org,
      since: options.since,
      record: whole ? { at: runtime.clock.now() } : undefined,
    });
    if (!report.ok) {
      const [first, ...rest] = report.breaks;
      for (const b of rest) process.stderr.write(`also broken: ${describeBreak(b)}\n`);
      throw new CliError(
        `verify failed after ${report.events} events: first broken: ${describeBreak(first!)}` +
          (rest.length > 0
            ? ` (${report.breaks.length} breaks in all${report.breaks.length >= 100 ? ' or more' : ''})`
            : ''),
      );
    }
    const scope = [options.org ? `organization ${options.org}` : null, options.since ? `after ${options.since}` : null]
      .filter(Boolean)
      .join(', ');
    process.stdout.write(
      `ok: ${report.events} events recomputed${scope ? ` (${scope})` : ''}, ${report.checkpointsMet} checkpoint(s) met\n`,
    );
    if (report.recorded) {
      process.stdout.write(
        `checkpoint: position ${report.recorded.position}, ${report.recorded.events} events, digest ${report.recorded.digest}\n`,
      );
    }
  });
}
