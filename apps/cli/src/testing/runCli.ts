import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/qiraa.mjs', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `qiraa` program in a child process, the way an operator's shell does: the run's
 * precompiled copy of the same sources when the project built one (packages/db/src/testing/entryBundles.ts;
 * half the CPU per start), else the bin through tsx.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv, options: { timeoutMs?: number } = {}): Promise<CliRun> {
  const entry = inject('qiraaEntries')?.cli ?? BIN;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [entry, ...args],
      { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, timeout: options.timeoutMs ?? 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
