import { writeSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the plain closing line `tests: N passed, N failed, N skipped` that CI reads (it does not parse
 * vitest's format), as the very last line: at process exit, after vitest's own summary.
 */
export default class SummaryReporter implements Reporter {
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
    const line = `\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`;
    process.once('exit', () => writeSync(1, line));
  }
}
