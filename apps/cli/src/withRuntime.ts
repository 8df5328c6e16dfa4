import { randomUUID } from 'node:crypto';
import { pendingMigrations } from '@qiraa/db';
import { withWriteContext } from '@qiraa/eventstore';
import { loadConfig, openRuntime, type Runtime } from '@qiraa/runtime';
import { CliError } from './cliError';
import { runningCommand } from './commandName';

/**
 * Opens the same database the server uses (DATABASE_URL, or the embedded cluster under DATA_DIR, joined
 * through its postmaster.pid when a server runs, started here otherwise), runs `work`, and closes it.
 * `migrate: true` applies pending migrations first, as the server does at start (seed-demo on a fresh data
 * directory); otherwise pending migrations refuse the command unless `requireMigrated` is false.
 */
export async function withRuntime<T>(
  work: (runtime: Runtime) => Promise<T>,
  options: { requireMigrated?: boolean; migrate?: boolean } = {},
): Promise<T> {
  const runtime = await openRuntime(loadConfig(), { role: 'cli', migrate: options.migrate ?? false });
  try {
    if (options.requireMigrated ?? true) {
      const pending = await pendingMigrations(runtime.sql);
      if (pending.length > 0) {
        throw new CliError(`database has ${pending.length} pending migration(s); run \`qiraa migrate\` first`);
      }
    }
    // Every event the command appends names it (`cli:gamification replay`) and shares one correlation id.
    const correlationId = `cli:${randomUUID()}`;
    return await withWriteContext(
      { systemActor: `cli:${runningCommand()}`, organizationId: null, correlationId, causationId: correlationId },
      () => work(runtime),
    );
  } finally {
    await runtime.close();
  }
}
