import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from './typescript';

/**
 * The boundaries the build enforces (docs/architecture.md, "Boundaries"), checked over the import statements
 * of every workspace (`packages/*`, `apps/*`) as TypeScript itself lists them (`ts.preProcessFile`: static,
 * type-only, re-exports and dynamic imports alike):
 *
 * - `package-imports-app`: nothing under packages/ imports an app (`@qiraa/api`, …, or a path into apps/);
 * - `relative-across-workspaces`: a package reaches another only by its package name, never `../../x/src`;
 * - `undeclared-entry`: `@qiraa/x/sub` must be one of x's `exports`;
 * - `deep-import`: production code of a package uses another package only through its root (`index.ts`);
 *   the other entries (`/testing`) are test kits, for test code only;
 * - `production-imports-test-code`: production code does not import its own package's test code;
 * - `undeclared-dependency`: every package a workspace imports is declared in its package.json, in
 *   `dependencies` when a package's production code imports it, in `dependencies` or `devDependencies` when only
 *   test code does (or an app, a leaf nobody installs); external ones at the root's version
 *   (`version-differs-from-root`);
 * - `cycle`: the packages' `dependencies` form no cycle; neither do their `devDependencies`, except through
 *   the composition (`COMPOSITION`: the app and the runtime, which the context specs run; the one exemption).
 *
 * Test code: `*.spec.ts`, anything under a `testing/` folder or named `testing.ts`, `*TestKit.ts`/`testKit.ts`,
 * `*Test<Name>.ts` (`oidcTestProvider.ts`) and `*Fixture.ts`/`*Fixtures.ts`.
 */

export type Rule =
  | 'package-imports-app'
  | 'relative-across-workspaces'
  | 'undeclared-entry'
  | 'deep-import'
  | 'production-imports-test-code'
  | 'undeclared-dependency'
  | 'version-differs-from-root'
  | 'cycle';

export interface Violation {
  rule: Rule;
  /** The importing file (or package.json for a cycle), relative to the root. */
  file: string;
  detail: string;
}

export interface Workspace {
  name: string;
  dir: string;
  kind: 'package' | 'app';
  exports: Set<string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

export interface ImportUse {
  /** Production code imports it (else only test code does). */
  production: boolean;
  files: string[];
}

export interface BoundaryReport {
  violations: Violation[];
  workspaces: Workspace[];
  /** What each workspace's code imports: workspace name → imported package name → use. */
  imports: Map<string, Map<string, ImportUse>>;
  /** Files under packages/ importing an app. */
  packageFilesImportingApps: number;
  /** Cycles among the packages' dependencies (production), each as the names in it. */
  cycles: string[][];
}

/**
 * The composition: `@qiraa/runtime` (every context, the runtime) and `@qiraa/app` (the HTTP app over it, and the
 * test kit that runs it). Test code of a context may depend on them (devDependencies): its int specs run the
 * whole app. Production code may not (that would be a cycle, and the checker reports it as one).
 */
export const COMPOSITION: readonly string[] = ['@qiraa/app', '@qiraa/runtime'];

const BUILTINS = new Set(builtinModules);
// Extensions optional: an import specifier (`./testing`, `../oidcTestProvider`) names a file without one.
const TEST_PATH = /\.spec(\.ts)?$|(^|\/)testing(\/|(\.ts)?$)|(^|\/)\w*(TestKit|testKit|Test[A-Z]\w*|Fixtures?)(\.ts)?$/;

export function isTestFile(path: string): boolean {
  return TEST_PATH.test(path.split(sep).join('/'));
}

function tsFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) tsFiles(path, out);
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

export function loadWorkspaces(root: string): Workspace[] {
  const found: Workspace[] = [];
  for (const [top, kind] of [
    ['packages', 'package'],
    ['apps', 'app'],
  ] as const) {
    const base = join(root, top);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base).sort()) {
      const manifest = join(base, entry, 'package.json');
      if (!existsSync(manifest)) continue;
      const json = readJson(manifest);
      const exportsField = json.exports;
      const exports = new Set<string>(
        typeof exportsField === 'object' && exportsField !== null ? Object.keys(exportsField) : ['.'],
      );
      found.push({
        name: String(json.name),
        dir: join(base, entry),
        kind,
        exports,
        dependencies: (json.dependencies ?? {}) as Record<string, string>,
        devDependencies: (json.devDependencies ?? {}) as Record<string, string>,
      });
    }
  }
  return found;
}

function packageNameOf(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const take = specifier.startsWith('@') ? 2 : 1;
  const rest = parts.slice(take).join('/');
  return { name: parts.slice(0, take).join('/'), subpath: rest ? `./${rest}` : '.' };
}

/** Strongly connected components with more than one member (Tarjan), plus self-loops. */
export function findCycles(graph: Map<string, Iterable<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = [...(graph.get(node) ?? [])].includes(node);
      if (component.length > 1 || selfLoop) cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

export function checkBoundaries(root: string): BoundaryReport {
  const rootManifest = readJson(join(root, 'package.json'));
  const rootVersions: Record<string, string> = {
    ...((rootManifest.devDependencies ?? {}) as Record<string, string>),
    ...((rootManifest.dependencies ?? {}) as Record<string, string>),
  };
  const workspaces = loadWorkspaces(root);
  const byName = new Map(workspaces.map((w) => [w.name, w]));
  const owner = (path: string) => workspaces.find((w) => path === w.dir || path.startsWith(w.dir + sep));
  const violations: Violation[] = [];
  const imports = new Map<string, Map<string, ImportUse>>();
  const filesImportingApps = new Set<string>();
  const rel = (path: string) => relative(root, path).split(sep).join('/');

  for (const ws of workspaces) {
    const used = new Map<string, ImportUse>();
    imports.set(ws.name, used);
    for (const file of tsFiles(join(ws.dir, 'src'))) {
      const where = rel(file);
      const test = isTestFile(relative(ws.dir, file));
      const production = !test;
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName: specifier } of importedFiles) {
        if (specifier.startsWith('node:') || BUILTINS.has(specifier)) continue;
        if (specifier.startsWith('.') || specifier.startsWith('/')) {
          const target = resolve(dirname(file), specifier);
          const targetOwner = owner(target);
          if (targetOwner !== ws) {
            const intoApp = targetOwner?.kind === 'app' || rel(target).startsWith('apps/');
            if (ws.kind === 'package' && intoApp) {
              filesImportingApps.add(where);
              violations.push({ rule: 'package-imports-app', file: where, detail: specifier });
            } else if (ws.kind === 'package') {
              violations.push({
                rule: 'relative-across-workspaces',
                file: where,
                detail: `${specifier}: import ${targetOwner?.name ?? 'it'} by its package name`,
              });
            }
          } else if (ws.kind === 'package' && production && isTestFile(relative(ws.dir, target))) {
            violations.push({ rule: 'production-imports-test-code', file: where, detail: specifier });
          }
          continue;
        }
        const { name, subpath } = packageNameOf(specifier);
        if (name === ws.name) continue;
        const target = byName.get(name);
        if (target) {
          if (ws.kind === 'package' && target.kind === 'app') {
            filesImportingApps.add(where);
            violations.push({
              rule: 'package-imports-app',
              file: where,
              detail: `${specifier}: apps compose packages, never the reverse (the test kit: @qiraa/app/testing)`,
            });
          }
          if (!target.exports.has(subpath)) {
            violations.push({
              rule: 'undeclared-entry',
              file: where,
              detail: `${specifier}: ${name} exports ${[...target.exports].join(', ')}`,
            });
          } else if (ws.kind === 'package' && production && subpath !== '.') {
            violations.push({
              rule: 'deep-import',
              file: where,
              detail: `${specifier}: production code uses ${name} through its root (index.ts) only`,
            });
          }
        }
        const use = used.get(name) ?? { production: false, files: [] };
        use.production ||= production;
        use.files.push(where);
        used.set(name, use);
      }
    }

    for (const [name, use] of [...used].sort(([a], [b]) => a.localeCompare(b))) {
      const inDeps = name in ws.dependencies;
      const inDev = name in ws.devDependencies;
      const declared = use.production && ws.kind === 'package' ? inDeps : inDeps || inDev;
      if (!declared) {
        violations.push({
          rule: 'undeclared-dependency',
          file: use.files[0]!,
          detail: `${name} is imported but not in ${rel(join(ws.dir, 'package.json'))} ${use.production ? 'dependencies' : 'dependencies or devDependencies'}`,
        });
      }
    }
    for (const [name, version] of Object.entries({ ...ws.devDependencies, ...ws.dependencies })) {
      if (byName.has(name)) continue;
      const rootVersion = rootVersions[name];
      if (rootVersion !== undefined && rootVersion !== version) {
        violations.push({
          rule: 'version-differs-from-root',
          file: rel(join(ws.dir, 'package.json')),
          detail: `${name}@${version}: the root has ${rootVersion} (one version per library)`,
        });
      }
    }
  }

  const packages = workspaces.filter((w) => w.kind === 'package');
  const graphOf = (pick: (w: Workspace) => string[]) =>
    new Map(packages.map((w) => [w.name, pick(w).filter((d) => byName.get(d)?.kind === 'package')]));
  const cycles = findCycles(graphOf((w) => Object.keys(w.dependencies)));
  for (const cycle of cycles) {
    violations.push({ rule: 'cycle', file: 'packages/*/package.json', detail: `dependencies: ${cycle.join(' ↔ ')}` });
  }
  const testCycles = findCycles(
    graphOf((w) =>
      [...Object.keys(w.dependencies), ...Object.keys(w.devDependencies)].filter((d) => !COMPOSITION.includes(d)),
    ),
  );
  for (const cycle of testCycles) {
    if (cycles.some((c) => c.join() === cycle.join())) continue;
    violations.push({
      rule: 'cycle',
      file: 'packages/*/package.json',
      detail: `dependencies and devDependencies: ${cycle.join(' ↔ ')}`,
    });
  }

  return { violations, workspaces, imports, packageFilesImportingApps: filesImportingApps.size, cycles };
}
