import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBoundaries } from './checkBoundaries';
import { checkLayout } from './checkLayout';
import { checkTables } from './checkTables';

/**
 * `npm run lint` runs this after biome: prints each boundary violation and exits 1 if there is one.
 * `--fix` first rewrites each workspace's `dependencies` and `devDependencies` to exactly what its code imports
 * (workspaces as "*", libraries at the root's version; imported only by test code: devDependencies), then
 * checks; run `npm install` after it (the lockfile records workspaces' dependencies).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

if (process.argv.includes('--fix')) {
  const { workspaces, imports } = checkBoundaries(root);
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const rootVersions: Record<string, string> = { ...rootManifest.devDependencies, ...rootManifest.dependencies };
  const names = new Set(workspaces.map((w) => w.name));
  // A library only a dependency of a dependency brings (hoisted): the version installed.
  const installed = (name: string): string | undefined => {
    const manifest = join(root, 'node_modules', name, 'package.json');
    return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
  };
  const sorted = (entries: [string, string][]) => Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
  for (const ws of workspaces) {
    const file = join(ws.dir, 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const deps: [string, string][] = [];
    const dev: [string, string][] = [];
    for (const [name, use] of imports.get(ws.name) ?? []) {
      const version = names.has(name) ? '*' : (rootVersions[name] ?? installed(name));
      if (version === undefined) {
        console.error(`${relative(root, file)}: ${name} is not installed; add it to the root package.json first`);
        continue;
      }
      // An app is a leaf nobody installs: its libraries keep the root's side (bench and fuzz tools stay dev).
      const production =
        ws.kind === 'app' ? names.has(name) || name in (rootManifest.dependencies ?? {}) : use.production;
      (production ? deps : dev).push([name, version]);
    }
    // Exactly what the code imports: production imports in dependencies, test-only ones in devDependencies.
    delete manifest.dependencies;
    delete manifest.devDependencies;
    if (deps.length) manifest.dependencies = sorted(deps);
    if (dev.length) manifest.devDependencies = sorted(dev);
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

const report = checkBoundaries(root);
for (const v of report.violations) console.error(`${v.rule}: ${v.file}: ${v.detail}`);
const packages = report.workspaces.filter((w) => w.kind === 'package').length;
console.log(
  `boundaries: ${report.workspaces.length} workspaces (${packages} packages), ${report.packageFilesImportingApps} package files importing apps, ${report.cycles.length} dependency cycles, ${report.violations.length} violations`,
);
// Who owns which table (checkTables.ts): no package names another's tables in its SQL; routes hold no SQL.
const tables = checkTables(root);
for (const v of tables.violations) console.error(`${v.rule}: ${v.file}: ${v.detail}`);
const foreignFiles = [...tables.foreign.values()].reduce((n, by) => n + [...by.values()].flat().length, 0);
console.log(
  `tables: ${foreignFiles} files naming another package's tables (excepted or not), ${tables.routeFilesWithSql.length} route files with SQL, ${tables.violations.length} violations`,
);
// One layout for every context (checkLayout.ts): layer folders only, no loose files, each kind in its layer.
const layout = checkLayout(root);
for (const v of layout.violations) console.error(`${v.rule}: ${v.file}: ${v.detail}`);
console.log(`layout: ${layout.contexts.length} contexts, ${layout.violations.length} violations`);
process.exitCode = report.violations.length || tables.violations.length || layout.violations.length ? 1 : 0;
