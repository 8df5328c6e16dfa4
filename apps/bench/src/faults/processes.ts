import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '@qiraa/db';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const FAULTS_JWT_SECRET = 'qiraa-faults-secret-0123456789abcdef0123456789';

export interface Service {
  readonly name: string;
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null after a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  /** The last lines the process wrote (stderr and stdout), for failure messages. */
  output(): string;
}

type Entry = 'api' | 'worker' | 'cli';
const SOURCES: Record<Entry, string> = {
  api: 'apps/api/src/main.ts',
  worker: 'apps/worker/src/main.ts',
  cli: 'apps/cli/src/main.ts',
};
let bundles: Partial<Record<Entry, string>> = {};

/**
 * Specs start the services from the test run's bundles of the same sources (packages/db/src/testing/
 * entryBundles.ts: about 4 CPU-s less per start than tsx); `npm run faults` runs the sources through tsx.
 */
export function startEntriesFrom(built: Partial<Record<Entry, string>> | undefined): void {
  bundles = { ...built };
}

const nodeArgs = (entry: Entry) => {
  const bundle = bundles[entry];
  return bundle ? [bundle] : ['--import', 'tsx', SOURCES[entry]];
};

function spawnEntry(entry: Entry, env: NodeJS.ProcessEnv): ChildProcess {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'EVENTSTORE_URL', 'NODE_ENV', 'JWT_SECRET', 'DATA_DIR']) {
    delete clean[key];
  }
  return spawn(process.execPath, nodeArgs(entry), {
    cwd: ROOT,
    env: {
      ...clean,
      LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
      NODE_ENV: 'production',
      JWT_SECRET: FAULTS_JWT_SECRET,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** FAULTS_LOG_DIR keeps each process's whole output (LOG_LEVEL from FAULTS_LOG_LEVEL) for a post-mortem. */
function tail(child: ChildProcess, name: string): () => string {
  let text = '';
  const dir = process.env.FAULTS_LOG_DIR;
  const file = dir ? createWriteStream(path.join(dir, `${name}-${child.pid}.log`)) : undefined;
  const keep = (chunk: Buffer) => {
    file?.write(chunk);
    text = (text + chunk.toString()).slice(-6000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

/** `npm start`'s entry against `databaseUrl` on a free port; resolves once /readyz answers 200. */
export async function startApi(
  name: string,
  databaseUrl: string,
  extra: NodeJS.ProcessEnv = {},
  port?: number,
): Promise<Service> {
  const listenPort = port ?? (await freeLoopbackPort());
  const child = spawnEntry('api', {
    DATABASE_URL: databaseUrl,
    PORT: String(listenPort),
    HOST: '127.0.0.1',
    ...extra,
  });
  const output = tail(child, name);
  const service: Service = {
    name,
    baseUrl: `http://127.0.0.1:${listenPort}`,
    child,
    exited: exitOf(child),
    output,
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode} during start-up: ${output()}`);
    const status = await fetch(`${service.baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return service;
    if (Date.now() > deadline) throw new Error(`${name} not ready within 240 s: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `npm run worker`'s entry; resolves once it logged that it is ready. */
export async function startWorker(name: string, databaseUrl: string, extra: NodeJS.ProcessEnv): Promise<Service> {
  const child = spawnEntry('worker', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...extra });
  const output = tail(child, name);
  const deadline = Date.now() + 240_000;
  while (!output().includes('worker ready')) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode} during start-up: ${output()}`);
    if (Date.now() > deadline) throw new Error(`${name} not ready within 240 s: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { name, baseUrl: '', child, exited: exitOf(child), output };
}

/** The CLI (`npm run qiraa -- …`'s entry) to its end, bounded. */
export function runCli(
  args: string[],
  databaseUrl: string,
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs('cli'), ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Sends `signal` and waits (bounded) for the exit; SIGKILL after `ms`. */
export async function stopService(service: Service, signal: NodeJS.Signals, ms = 30_000): Promise<number | null> {
  if (service.child.exitCode !== null) return service.child.exitCode;
  service.child.kill(signal);
  const late = setTimeout(() => service.child.kill('SIGKILL'), ms);
  const code = await service.exited;
  clearTimeout(late);
  return code;
}
