import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The CLI specs run the real `qiraa` binary in a child process, dozens of times per run. Through tsx every
 * start paid for the TypeScript loader hooks over hundreds of modules (about 2.5 CPU-seconds, most of
 * it before the first line of the command). This compiles the same sources once per run with esbuild
 * (tsx's own compiler) into one file under node_modules/.cache, so the children start in about 1 s of CPU.
 * Third-party packages stay external and load from node_modules exactly as before; each source file
 * keeps its own `import.meta.url`, so paths such as the migrations folder resolve as they do unbundled.
 */
export async function buildCliBundle(): Promise<string> {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'qiraa-test');
  await mkdir(dir, { recursive: true });
  const outfile = path.join(dir, `qiraa-cli-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(ROOT, 'apps/cli/src/main.ts')],
    outfile,
    bundle: true,
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
  return outfile;
}

/** vitest globalSetup: builds the bundle and hands its path to the specs (runCli falls back to the bin). */
export default async function setup(project: TestProject) {
  const outfile = await buildCliBundle();
  project.provide('qiraaCliBundle', outfile);
  return async () => {
    const { rm } = await import('node:fs/promises');
    await rm(outfile, { force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    qiraaCliBundle: string;
  }
}
