import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface ServerProcess {
  readonly url: string;
  stop(): Promise<void>;
}

async function reachable(url: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${deadlineMs / 1000} s`);
}

/** A node process of its own (so the load generator does not share its event loop), up once `probe` answers. */
export async function startServer(
  script: string,
  port: number,
  probe: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, String(port)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await reachable(`${url}${probe}`, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
