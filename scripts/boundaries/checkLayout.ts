import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One layout for every bounded context (docs/architecture.md, "Context layout"): a reader finds a kind of code
 * in the same folder in every package. A context is a package with `src/context.ts`; platform packages
 * (db, kernel, http-kit, ...) are not checked.
 */
export const LAYER_FOLDERS = [
  'routes',
  'commands',
  'queries',
  'events',
  'engine',
  'rules',
  'projections',
  'reactions',
  'schedules',
  'schemas',
  'replay',
  'testing',
] as const;

/** The files a context may keep beside its folders: its entry points and its small shared vocabularies. */
export const ROOT_FILES = [
  'index.ts',
  'context.ts',
  'commandContext.ts',
  'events.ts',
  'schemas.ts',
  'ids.ts',
  'codes.ts',
  'scope.ts',
] as const;

/** A file named for a layer's kind sits in that layer, wherever its feature is. */
const NAMED_KINDS: readonly [RegExp, string][] = [
  [/Routes\.ts$/, 'routes'],
  [/Projection\.ts$/, 'projections'],
  [/Reaction\.ts$/, 'reactions'],
  [/Schedule\.ts$/, 'schedules'],
  [/Decider\.ts$/, 'commands'],
];

export interface LayoutViolation {
  rule: 'layout-folder' | 'layout-root-file' | 'layout-kind';
  file: string;
  detail: string;
}

function filesUnder(dir: string, prefix: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, `${prefix}${name}/`, out);
    else if (name.endsWith('.ts')) out.push(`${prefix}${name}`);
  }
  return out;
}

export function checkLayout(root: string): { contexts: string[]; violations: LayoutViolation[] } {
  const violations: LayoutViolation[] = [];
  const contexts: string[] = [];
  const packagesDir = join(root, 'packages');
  for (const pkg of readdirSync(packagesDir).sort()) {
    const src = join(packagesDir, pkg, 'src');
    if (!existsSync(join(src, 'context.ts'))) continue;
    contexts.push(pkg);
    const at = `packages/${pkg}/src/`;
    for (const name of readdirSync(src).sort()) {
      const isDir = statSync(join(src, name)).isDirectory();
      if (isDir && !(LAYER_FOLDERS as readonly string[]).includes(name)) {
        violations.push({
          rule: 'layout-folder',
          file: `${at}${name}/`,
          detail: `a feature folder; move its files into the layer folders (${LAYER_FOLDERS.join(', ')})`,
        });
      }
      if (!isDir && name.endsWith('.ts') && !(ROOT_FILES as readonly string[]).includes(name)) {
        violations.push({
          rule: 'layout-root-file',
          file: `${at}${name}`,
          detail: `only ${ROOT_FILES.join(', ')} sit at a context's root; move it into its layer folder`,
        });
      }
    }
    for (const file of filesUnder(src, '')) {
      const folder = file.includes('/') ? file.slice(0, file.indexOf('/')) : '';
      for (const [pattern, layer] of NAMED_KINDS) {
        if (
          pattern.test(file.replace(/\.(unit|int|e2e)\.spec\.ts$/, '.ts')) &&
          folder !== layer &&
          folder !== 'testing'
        ) {
          violations.push({
            rule: 'layout-kind',
            file: `${at}${file}`,
            detail: `named as a ${layer} file; move it to ${layer}/`,
          });
        }
      }
    }
  }
  return { contexts, violations };
}
