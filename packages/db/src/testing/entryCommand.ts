import { inject } from 'vitest';
import { ENTRIES, type Entry } from './entries';

/**
 * The node arguments that start `entry`: the run's bundle of it (entryBundles.ts), or, when the project built
 * none, its source through tsx as `npm start` runs it.
 */
export function entryArgs(entry: Entry): string[] {
  const bundle = inject('qiraaEntries')?.[entry];
  return bundle ? [bundle] : ['--import', 'tsx', ENTRIES[entry]];
}

/**
 * Environment for `npm start` / `npm run worker` that keeps npm, the script as package.json has it and its shell,
 * and swaps only `--import tsx <source>` for the run's bundle of the same source; nothing when none was built.
 */
export function npmWithBundles(): NodeJS.ProcessEnv {
  const shell = inject('qiraaEntries')?.npmScriptShell;
  return shell ? { npm_config_script_shell: shell } : {};
}
