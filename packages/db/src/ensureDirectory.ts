import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { SetupError } from './setupError';

/**
 * Creates `dir` and its missing parents one level at a time. Node 20's `mkdirSync(dir, { recursive: true })`
 * never returns for a path under /proc (ENOENT from the kernel, retried forever at full CPU); created one by
 * one, each refusal is an error the operator can read.
 */
export function ensureDirectory(dir: string, setting: string): void {
  const absolute = path.resolve(dir);
  const missing: string[] = [];
  for (let at = absolute; ; at = path.dirname(at)) {
    const found = statOf(at);
    if (found === 'directory') break;
    if (found === 'other') throw refusal(setting, absolute, `${at} is not a directory`);
    missing.unshift(at);
    if (at === path.dirname(at)) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statOf(folder) === 'directory') continue;
      throw refusal(setting, absolute, `cannot create ${folder}: ${code ?? (error as Error).message}`);
    }
  }
}

function statOf(at: string): 'directory' | 'other' | 'missing' {
  try {
    return statSync(at).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}

const refusal = (setting: string, dir: string, why: string) =>
  new SetupError(
    setting,
    `${setting}: ${dir} is not usable (${why}); set ${setting} to a directory this user may write`,
  );
