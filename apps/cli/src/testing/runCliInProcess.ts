import { Console } from 'node:console';
import { runProgram } from '../runProgram';
import type { CliRun } from './runCli';

type Write = typeof process.stdout.write;

/** A stream's write that keeps what it is given instead of printing it (callbacks still run). */
function capture(into: string[]): Write {
  return ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }) as Write;
}

/**
 * The same command line as runCli, run by the program's own entry (runProgram, what main.ts runs) inside
 * the test's process: its stdout, stderr and exit code, without the ~1 CPU-second a child pays to start.
 * For tests of what a command prints and answers; process behaviour (signals, a real exit, the bin) keeps
 * runCli, and every command family keeps at least one real spawn. The environment is the child's
 * (process.env, LOG_LEVEL=silent, then `env`), set for the run and put back after; so are the streams,
 * console (vitest's own would swallow it), isTTY (a child's stderr is a pipe: progress bars print lines)
 * and process.exitCode. A spec file's tests run one at a time, so nothing else writes meanwhile.
 */
export async function runCliInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const vars = { LOG_LEVEL: 'silent', ...env };
  const savedEnv = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  const saved = {
    out: process.stdout.write,
    err: process.stderr.write,
    outTty: Object.getOwnPropertyDescriptor(process.stdout, 'isTTY'),
    errTty: Object.getOwnPropertyDescriptor(process.stderr, 'isTTY'),
    console: globalThis.console,
    exitCode: process.exitCode,
  };
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  process.stdout.write = capture(stdout);
  process.stderr.write = capture(stderr);
  Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
  Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true, writable: true });
  globalThis.console = new Console({ stdout: process.stdout, stderr: process.stderr });
  process.exitCode = undefined;
  try {
    await runProgram([process.execPath, 'qiraa', ...args]);
    const code = process.exitCode;
    return {
      code: typeof code === 'number' ? code : Number(code ?? 0),
      stdout: stdout.join(''),
      stderr: stderr.join(''),
    };
  } finally {
    process.exitCode = saved.exitCode;
    globalThis.console = saved.console;
    restoreTty(process.stdout, saved.outTty);
    restoreTty(process.stderr, saved.errTty);
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    for (const [key, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

function restoreTty(stream: NodeJS.WriteStream, descriptor: PropertyDescriptor | undefined): void {
  if (descriptor) Object.defineProperty(stream, 'isTTY', descriptor);
  else delete (stream as { isTTY?: boolean }).isTTY;
}
