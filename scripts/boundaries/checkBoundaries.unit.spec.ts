import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBoundaries } from './checkBoundaries';

/**
 * The checker against a small monorepo written to a temporary folder: clean, it finds nothing; each planted
 * violation is reported under its rule. Last, the real tree passes.
 */
type Files = Record<string, string | object>;

const manifest = (name: string, extra: object = {}) => ({ name, version: '0.1.0', type: 'module', ...extra });

/** db (platform) ← identity (context) ← sessions (context) ← runtime (composition) ← app; apps/api on top. */
const clean: Files = {
  'package.json': { name: 'fixture', dependencies: { postgres: '3.4.9' }, devDependencies: { vitest: '3.2.7' } },
  'packages/db/package.json': manifest('@qiraa/db', {
    exports: { '.': './src/index.ts', './testing': './src/testing/index.ts' },
    dependencies: { postgres: '3.4.9' },
  }),
  'packages/db/src/index.ts': "import postgres from 'postgres';\nexport const sql = postgres;\n",
  'packages/db/src/testing/index.ts': "export const testDatabase = () => 'db';\n",
  'packages/identity/package.json': manifest('@qiraa/identity', {
    exports: { '.': './src/index.ts' },
    dependencies: { '@qiraa/db': '*' },
    devDependencies: { '@qiraa/app': '*', vitest: '3.2.7' },
  }),
  'packages/identity/src/index.ts': "import { sql } from '@qiraa/db';\nexport const users = () => sql;\n",
  'packages/identity/src/users.int.spec.ts':
    "import { useTestWorld } from '@qiraa/app/testing';\nimport { it } from 'vitest';\nit('', () => useTestWorld());\n",
  'packages/sessions/package.json': manifest('@qiraa/sessions', {
    exports: { '.': './src/index.ts', './testing': './src/testing/index.ts' },
    dependencies: { '@qiraa/db': '*', '@qiraa/identity': '*' },
    devDependencies: { vitest: '3.2.7' },
  }),
  'packages/sessions/src/index.ts':
    "import { users } from '@qiraa/identity';\nexport { startSession } from './start';\n",
  'packages/sessions/src/start.ts': "import { sql } from '@qiraa/db';\nexport const startSession = () => sql;\n",
  'packages/sessions/src/testing/index.ts': "export const sessionKit = () => 'kit';\n",
  'packages/sessions/src/start.unit.spec.ts':
    "import { testDatabase } from '@qiraa/db/testing';\nimport { it } from 'vitest';\nimport { sessionKit } from './testing';\nit('', () => [testDatabase, sessionKit]);\n",
  'packages/runtime/package.json': manifest('@qiraa/runtime', {
    dependencies: { '@qiraa/identity': '*', '@qiraa/sessions': '*' },
  }),
  'packages/runtime/src/index.ts':
    "export { users } from '@qiraa/identity';\nexport { startSession } from '@qiraa/sessions';\n",
  'packages/app/package.json': manifest('@qiraa/app', {
    exports: { '.': './src/index.ts', './testing': './src/testing/index.ts' },
    dependencies: { '@qiraa/runtime': '*' },
  }),
  'packages/app/src/index.ts': "export * from '@qiraa/runtime';\n",
  'packages/app/src/testing/index.ts': "export const useTestWorld = () => import('../index');\n",
  'apps/api/package.json': manifest('@qiraa/api', { dependencies: { '@qiraa/app': '*' } }),
  'apps/api/src/main.ts': "import '@qiraa/app';\n",
};

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

function repo(files: Files): string {
  const root = mkdtempSync(join(tmpdir(), 'boundaries-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return root;
}

const rulesOf = (files: Files) =>
  checkBoundaries(repo(files))
    .violations.map((v) => `${v.rule} ${v.file}: ${v.detail.split(':')[0]}`)
    .sort();

describe('checkBoundaries', () => {
  it('finds nothing in a tree that keeps the rules (test code may run the composed app)', () => {
    expect(rulesOf(clean)).toEqual([]);
  });

  it('refuses a package importing an app, by name or by path, in a type or test code too', () => {
    const planted = {
      ...clean,
      'packages/identity/src/login.int.spec.ts': "import { buildApp } from '@qiraa/api';\n",
      'packages/sessions/src/print.ts': "export { main } from '../../../apps/api/src/main';\n",
      'packages/db/src/lazy.ts': "export type Api = typeof import('@qiraa/api');\n",
    };
    expect(rulesOf(planted)).toEqual([
      'package-imports-app packages/db/src/lazy.ts: @qiraa/api',
      'package-imports-app packages/identity/src/login.int.spec.ts: @qiraa/api',
      'package-imports-app packages/sessions/src/print.ts: ../../../apps/api/src/main',
      'undeclared-dependency packages/db/src/lazy.ts: @qiraa/api is imported but not in packages/db/package.json dependencies',
      'undeclared-dependency packages/identity/src/login.int.spec.ts: @qiraa/api is imported but not in packages/identity/package.json dependencies or devDependencies',
    ]);
    expect(checkBoundaries(repo(planted)).packageFilesImportingApps).toBe(3);
  });

  it('refuses a cycle between packages, even one declared and imported on purpose', () => {
    const planted = {
      ...clean,
      'packages/identity/package.json': manifest('@qiraa/identity', {
        exports: { '.': './src/index.ts' },
        dependencies: { '@qiraa/db': '*', '@qiraa/sessions': '*' },
        devDependencies: { '@qiraa/app': '*', vitest: '3.2.7' },
      }),
      'packages/identity/src/sessionsOfUser.ts': "export { startSession } from '@qiraa/sessions';\n",
    };
    const report = checkBoundaries(repo(planted));
    expect(report.cycles).toEqual([['@qiraa/identity', '@qiraa/sessions']]);
    expect(report.violations.map((v) => v.rule)).toEqual(['cycle']);
  });

  it('refuses a cycle through test code too, except through the composition (app, runtime)', () => {
    const planted = {
      ...clean,
      'packages/identity/package.json': manifest('@qiraa/identity', {
        exports: { '.': './src/index.ts' },
        dependencies: { '@qiraa/db': '*' },
        devDependencies: { '@qiraa/app': '*', '@qiraa/sessions': '*', vitest: '3.2.7' },
      }),
      'packages/identity/src/sessions.int.spec.ts': "import { sessionKit } from '@qiraa/sessions/testing';\n",
    };
    expect(rulesOf(planted)).toEqual(['cycle packages/*/package.json: dependencies and devDependencies']);
  });

  it("refuses production code using another package other than through its root, or through an entry it doesn't export", () => {
    const planted = {
      ...clean,
      'packages/runtime/src/kit.ts': "export { sessionKit } from '@qiraa/sessions/testing';\n",
      'packages/runtime/src/start.ts': "export { startSession } from '@qiraa/sessions/src/start';\n",
      'packages/runtime/src/tests.unit.spec.ts': "export { startSession } from '@qiraa/sessions/src/start';\n",
      'packages/runtime/src/other.ts': "export { users } from '../../identity/src/index';\n",
    };
    expect(rulesOf(planted)).toEqual([
      'deep-import packages/runtime/src/kit.ts: @qiraa/sessions/testing',
      'relative-across-workspaces packages/runtime/src/other.ts: ../../identity/src/index',
      'undeclared-entry packages/runtime/src/start.ts: @qiraa/sessions/src/start',
      'undeclared-entry packages/runtime/src/tests.unit.spec.ts: @qiraa/sessions/src/start',
    ]);
  });

  it('refuses production code importing its own test kit', () => {
    const planted = { ...clean, 'packages/sessions/src/start.ts': "export { sessionKit } from './testing';\n" };
    expect(rulesOf(planted)).toEqual(['production-imports-test-code packages/sessions/src/start.ts: ./testing']);
  });

  it('refuses an import its package.json does not declare, or declares for tests only, or at another version', () => {
    const planted = {
      ...clean,
      'packages/identity/src/lists.ts': "import postgres from 'postgres';\nimport { expect } from 'vitest';\n",
      'packages/db/package.json': manifest('@qiraa/db', {
        exports: { '.': './src/index.ts', './testing': './src/testing/index.ts' },
        dependencies: { postgres: '3.4.8' },
      }),
    };
    expect(rulesOf(planted)).toEqual([
      'undeclared-dependency packages/identity/src/lists.ts: postgres is imported but not in packages/identity/package.json dependencies',
      'undeclared-dependency packages/identity/src/lists.ts: vitest is imported but not in packages/identity/package.json dependencies',
      'version-differs-from-root packages/db/package.json: postgres@3.4.8',
    ]);
  });

  it('passes on the real tree', () => {
    const report = checkBoundaries(fileURLToPath(new URL('../..', import.meta.url)));
    expect(report.violations).toEqual([]);
    expect(report.packageFilesImportingApps).toBe(0);
    expect(report.cycles).toEqual([]);
    expect(report.workspaces.filter((w) => w.kind === 'package').length).toBeGreaterThan(20);
  });
});
