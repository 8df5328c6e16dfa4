import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { ENTRIES, type Entry, type EntryBundles } from './entries';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The specs start the API, the worker and the `qiraa` CLI as child processes, dozens of times per run. Through
 * tsx every start paid for the TypeScript loader hooks over hundreds of modules: about 6.5 CPU-seconds for the
 * API (2.5 of them loading third-party packages), most of it before the first line of `main.ts`. This
 * compiles the same sources once per run with esbuild (tsx's own compiler) into one folder under
 * node_modules/.cache (code shared by the three entries in common chunks), so a child starts in about 2.5 s of
 * CPU. Third-party packages stay external and load from node_modules exactly as before; each source file
 * keeps its own `import.meta.url`, so paths such as the migrations folder resolve as they do unbundled.
 */
export async function buildEntryBundles(): Promise<EntryBundles> {
  const outdir = path.join(ROOT, 'node_modules', '.cache', 'qiraa-test', `entries-${process.pid}`);
  await mkdir(outdir, { recursive: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(ROOT, file)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as qiraaRequire } from 'node:module'; const require = qiraaRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'qiraa-sources',
        setup(b) {
          // Workspace packages (@qiraa/*) are bundled; everything else is imported from node_modules.
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@qiraa/') ? undefined : { external: true },
          );
          b.onLoad({ filter: /[\\/](packages|apps)[\\/].*\.ts$/ }, async (args) => ({
            contents: (await readFile(args.path, 'utf8')).replaceAll(
              'import.meta.url',
              JSON.stringify(pathToFileURL(args.path).href),
            ),
            loader: 'ts',
          }));
        },
      },
    ],
  });
  const bundles = Object.fromEntries(
    Object.keys(ENTRIES).map((name) => [name, path.join(outdir, `${name}.mjs`)]),
  ) as Record<Entry, string>;
  return { ...bundles, npmScriptShell: await writeNpmScriptShell(outdir, bundles) };
}

/**
 * npm runs a script as `<script-shell> -c '<script>'`. This shell rewrites `--import tsx <entry source>` into
 * the bundle's path and hands the rest to /bin/sh with `exec`, so the process tree is npm's own (npm, then the
 * script's `exec node`), the script is package.json's (an `exec` dropped there is still seen), and a script
 * that names no entry runs unchanged.
 */
async function writeNpmScriptShell(outdir: string, bundles: Record<Entry, string>): Promise<string> {
  const rewrites = Object.entries(ENTRIES).map(([name, source]) => {
    const bundle = bundles[name as Entry];
    if (!/^[\w./-]+$/.test(bundle)) throw new Error(`entry bundle path needs quoting for sh: ${bundle}`);
    return `-e 's#--import tsx ${source.replaceAll('.', '\\.')}#${bundle}#'`;
  });
  const file = path.join(outdir, 'npm-script-shell.sh');
  await writeFile(
    file,
    `#!/bin/sh\n# npm calls: npm-script-shell.sh -c '<script>'\n[ "$1" = -c ] || exec /bin/sh "$@"\n` +
      `exec /bin/sh -c "$(printf '%s' "$2" | sed ${rewrites.join(' ')})"\n`,
  );
  await chmod(file, 0o755);
  return file;
}

// Global setups of all projects run in vitest's one main process: the int and e2e projects share one build.
const shared = globalThis as { qiraaEntryBundles?: Promise<EntryBundles> };

/** vitest globalSetup: builds the bundles and hands their paths to the specs (each starter falls back to tsx). */
export default async function setup(project: TestProject) {
  shared.qiraaEntryBundles ??= buildEntryBundles();
  const bundles = await shared.qiraaEntryBundles;
  project.provide('qiraaEntries', bundles);
  return async () => {
    await rm(path.dirname(bundles.api), { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    qiraaEntries: EntryBundles;
  }
}
