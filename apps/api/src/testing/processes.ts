import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Entry, entryArgs } from '@qiraa/db/testing';

export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** The environment of a fresh clone: nothing of the test run's own database, queue or mode leaks in. */
export function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'EVENTSTORE_URL', 'NODE_ENV', 'JWT_SECRET']) delete env[key];
  return { ...env, ...extra };
}

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `entry` (the run's bundle of it, else its source through tsx) from the repository root to its end. */
export function runEntry(entry: Entry, env: NodeJS.ProcessEnv): Promise<Exited> {
  return new Promise((resolve) => {
    execFile(process.execPath, entryArgs(entry), { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Whether a process still runs. A dead process whose parent has not reaped it yet (an orphan under an init
 * that never reaps, as in some containers) is a zombie: `kill(pid, 0)` still succeeds, /proc says `Z`.
 */
export function isRunning(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (existsSync('/proc/self/stat')) {
    if (!existsSync(stat)) return false;
    const state = readFileSync(stat, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid in line 1 of postmaster.pid, or null when PostgreSQL removed the file on a clean stop. */
export function postmasterPid(pgDir: string): number | null {
  const file = `${pgDir}/postmaster.pid`;
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Spawns a long-running command with its output collected (stdout and stderr together). */
export function start(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Polls `url` until it answers 200, the process exits, or the deadline passes (start-up may initdb). */
export async function waitForHttp(url: string, started: Started, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const up = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    if (Date.now() > deadline || started.child.exitCode !== null || started.child.signalCode !== null) {
      throw new Error(`${url} did not answer:\n${started.output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
