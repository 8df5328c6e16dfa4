import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayout } from './checkLayout';

/** The layout check against a small tree in a temporary folder, then against the real tree. */
let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layout-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const clean = {
  'packages/sessions/src/context.ts': 'export const c = 1;\n',
  'packages/sessions/src/index.ts': "export * from './context';\n",
  'packages/sessions/src/ids.ts': 'export const id = 1;\n',
  'packages/sessions/src/routes/sessionRoutes.ts': 'export const r = 1;\n',
  'packages/sessions/src/routes/sessionRoutes.int.spec.ts': 'export {};\n',
  'packages/sessions/src/commands/cancelSession.ts': 'export const c = 1;\n',
  'packages/sessions/src/testing/worldProjection.ts': 'export const t = 1;\n',
  // A platform package (no context.ts) keeps any layout.
  'packages/db/src/pool/anything.ts': 'export const p = 1;\n',
};

describe('checkLayout', () => {
  it('finds nothing in a tree laid out by layer', () => {
    const report = checkLayout(repo(clean));
    expect(report.contexts).toEqual(['sessions']);
    expect(report.violations).toEqual([]);
  });

  it('names a feature folder, a loose root file and a kind outside its layer', () => {
    const report = checkLayout(
      repo({
        ...clean,
        'packages/sessions/src/practice/queueSession.ts': 'export const q = 1;\n',
        'packages/sessions/src/sessionView.ts': 'export const v = 1;\n',
        'packages/sessions/src/crash.int.spec.ts': 'export {};\n',
        'packages/sessions/src/commands/deliveryRoutes.ts': 'export const r = 1;\n',
        'packages/sessions/src/queries/practiceProjection.ts': 'export const p = 1;\n',
      }),
    );
    expect(report.violations.map((v) => `${v.rule} ${v.file}`).sort()).toEqual([
      'layout-folder packages/sessions/src/practice/',
      'layout-kind packages/sessions/src/commands/deliveryRoutes.ts',
      'layout-kind packages/sessions/src/queries/practiceProjection.ts',
      'layout-root-file packages/sessions/src/crash.int.spec.ts',
      'layout-root-file packages/sessions/src/sessionView.ts',
    ]);
  });

  it('passes on the real tree', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    expect(checkLayout(root).violations).toEqual([]);
  });
});
