import { writeSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * How many files the table lists: 10, or QIRAA_SLOWEST_FILES (a number, or `all` for every file: the list
 * to pick the next files to speed up from).
 */
export function slowestCount(setting: string | undefined): number {
  if (setting === 'all') return Number.POSITIVE_INFINITY;
  const n = Number(setting);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

/**
 * The slowest files first: wall time from the first import to the last hook (collect + tests and hooks), and the
 * collect part of it (importing the file and what it loads: large for a worker's first file of a project, which
 * loads the module graph the later files of that worker reuse).
 */
export function slowestFiles(
  modules: ReadonlyArray<TestModule>,
  root: string,
  count = slowestCount(process.env.QIRAA_SLOWEST_FILES),
): string {
  const rows = modules
    .map((m) => {
      const d = m.diagnostic();
      return {
        file: path.relative(root, m.moduleId),
        project: m.project.name,
        ms: d.collectDuration + d.duration,
        collectMs: d.collectDuration,
        tests: [...m.children.allTests()].length,
      };
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.file.length));
  const lines = rows.map(
    (r) =>
      `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file.padEnd(width)}  ${r.project}, ${r.tests} test${r.tests === 1 ? '' : 's'}, collect ${(r.collectMs / 1000).toFixed(1)} s`,
  );
  return `\nslowest ${rows.length} test files:\n${lines.join('\n')}\n`;
}

/**
 * Prints the ten slowest test files (QIRAA_SLOWEST_FILES=all: every file), then the plain closing line `tests: N passed, N failed, N skipped`
 * that CI reads (it does not parse vitest's format), as the very last line: at process exit, after
 * vitest's own summary.
 */
export default class SummaryReporter implements Reporter {
  #root = process.cwd();

  onInit(vitest: { config: { root: string } }) {
    this.#root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const slowest = slowestFiles(testModules, this.#root);
    const line = `\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`;
    process.once('exit', () => writeSync(1, slowest + line));
  }
}
