/** The programs the specs start as child processes, by name, with the source file `npm start` & co. run. */
export const ENTRIES = {
  api: 'apps/api/src/main.ts',
  worker: 'apps/worker/src/main.ts',
  cli: 'apps/cli/src/main.ts',
} as const;

export type Entry = keyof typeof ENTRIES;

/**
 * What the e2e and int projects' global setup (entryBundles.ts) hands the specs: each entry's bundle, and a
 * shell for npm (`npm_config_script_shell`) that runs a package.json script with the bundle in place of
 * `--import tsx <source>`.
 */
export interface EntryBundles extends Record<Entry, string> {
  npmScriptShell: string;
}
