import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort } from '@qiraa/db';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface ServerProcess {
  readonly baseUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

async function waitReady(baseUrl: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server was not ready within 60 s: ${stderr()}`);
}

/**
 * The service as `npm start` runs it (the same entry file, a process of its own) on a free loopback port,
 * against `databaseUrl`. TRUST_PROXY lets each simulated student sign in from an address of its own.
 */
export async function startServerProcess(databaseUrl: string, jwtSecret: string): Promise<ServerProcess> {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: process.env.LOAD_SERVER_LOG_LEVEL ?? 'warn',
      TRUST_PROXY: 'true',
      NODE_ENV: 'production',
      REDIS_URL: '',
    },
    stdio: ['ignore', process.env.LOAD_SERVER_LOG_LEVEL ? 'inherit' : 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-4000);
    // LOAD_SERVER_LOG_LEVEL=info shows the server's own log lines beside the load's.
    if (process.env.LOAD_SERVER_LOG_LEVEL) process.stderr.write(chunk);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitReady(baseUrl, child, () => err);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, pid: child.pid ?? 0, stop };
}
