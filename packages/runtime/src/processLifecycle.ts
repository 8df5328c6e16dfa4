import { failureLine } from './failureLine';

/** Every way a process manager, a terminal or npm asks a process to stop. */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export interface ProcessLifecycle {
  /** Something shutdown must close (the app, the runtime); closed last registered first. */
  onStop(close: () => Promise<void>): void;
  /** Start-up is over. */
  started(): void;
  /** A start-up step a stop must let finish first (starting the embedded PostgreSQL); returns `step`. */
  hold<T>(step: Promise<T>): Promise<T>;
  /** Start-up failed: one line on stderr (no stack trace), close what was opened, exit 1. */
  fail(error: unknown): Promise<never>;
}

export interface LifecycleOptions {
  /** Prefix of the failure line ("qiraa", "qiraa-worker"). */
  name: string;
  log: (fields: Record<string, unknown>, message: string) => void;
  /** A close that hangs longer than this exits 1 anyway (the embedded PostgreSQL still gets its stop). */
  graceMs: number;
  parentPollMs?: number;
}

/**
 * Stops the process, and with it the embedded PostgreSQL it started, on SIGTERM, SIGINT and SIGHUP, and when
 * its parent goes away (npm killed without forwarding a signal, a supervisor that died): the kernel hands an
 * orphan to another parent, so a changed `process.ppid` means whoever started us is gone. Repeated signals are
 * ignored (Ctrl-C under npm arrives twice: from the terminal and forwarded by npm); the grace timer bounds
 * the stop, and the `exit` hook of the embedded server still stops PostgreSQL on a forced exit.
 */
export function processLifecycle(options: LifecycleOptions): ProcessLifecycle {
  const closers: (() => Promise<void>)[] = [];
  let stopping = false;
  const held: Promise<unknown>[] = [];

  const closeAll = async () => {
    for (let close = closers.pop(); close; close = closers.pop()) await close();
  };
  const forceExitAfterGrace = () => setTimeout(() => process.exit(1), options.graceMs).unref();

  async function stop(reason: string) {
    if (stopping) return;
    stopping = true;
    options.log({ reason }, 'shutting down');
    // Start-up is not waited for (one that cannot finish must not hold the stop), only the steps it marked
    // with `hold`: an embedded PostgreSQL that is starting is then stopped by its exit hook, not orphaned.
    await Promise.race([Promise.allSettled(held), new Promise((resolve) => setTimeout(resolve, options.graceMs))]);
    forceExitAfterGrace();
    try {
      await closeAll();
      process.exit(0);
    } catch (error) {
      options.log({ err: error }, `shutdown failed: ${failureLine(error)}`);
      process.exit(1);
    }
  }

  for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(signal));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop('parent exited');
  }, options.parentPollMs ?? 500).unref();

  return {
    onStop(close) {
      closers.push(close);
    },
    hold(step) {
      held.push(step.catch(() => {}));
      return step;
    },
    started() {},
    async fail(error) {
      stopping = true;
      process.stderr.write(`${options.name}: ${failureLine(error)}\n`);
      if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') {
        process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
      }
      forceExitAfterGrace();
      await closeAll().catch(() => {});
      process.exit(1);
    },
  };
}
