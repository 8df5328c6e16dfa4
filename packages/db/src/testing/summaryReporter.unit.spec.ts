import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { slowestCount, slowestFiles } from './summaryReporter';

/** Just the parts of a finished TestModule the table reads. */
const module = (file: string, collectMs: number, runMs: number, tests: number) =>
  ({
    moduleId: `/repo/${file}`,
    project: { name: 'int' },
    diagnostic: () => ({ collectDuration: collectMs, duration: runMs }),
    children: { allTests: () => Array.from({ length: tests })[Symbol.iterator]() },
  }) as unknown as TestModule;

describe('slowestFiles', () => {
  it('lists the slowest files first, at most the count asked for, with collect time included and shown', () => {
    const modules = [
      module('a.int.spec.ts', 100, 900, 3),
      module('b.int.spec.ts', 5000, 16_000, 1),
      module('c.int.spec.ts', 0, 2000, 2),
    ];
    const lines = slowestFiles(modules, '/repo', 2).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('slowest 2 test files:');
    expect(lines[1]).toMatch(/^ +21\.0 s {2}b\.int\.spec\.ts {2}int, 1 test, collect 5\.0 s$/);
    expect(lines[2]).toMatch(/^ +2\.0 s {2}c\.int\.spec\.ts {2}int, 2 tests, collect 0\.0 s$/);
  });

  it('prints nothing for a run without files', () => {
    expect(slowestFiles([], '/repo')).toBe('');
  });

  it('lists ten files unless QIRAA_SLOWEST_FILES names a count or all', () => {
    expect(slowestCount(undefined)).toBe(10);
    expect(slowestCount('3')).toBe(3);
    expect(slowestCount('nope')).toBe(10);
    const modules = Array.from({ length: 12 }, (_, i) => module(`f${i}.int.spec.ts`, 0, 1000 * (i + 1), 1));
    expect(slowestFiles(modules, '/repo', slowestCount('all')).trim().split('\n')).toHaveLength(13);
  });
});
