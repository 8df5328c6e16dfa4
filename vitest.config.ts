import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace';

export default defineConfig({
  test: {
    projects,
    // vitest's default is one worker per core but one (2 cores: a single worker). The int and e2e specs
    // mostly wait (on PostgreSQL's commits, on child processes), so three files at a time keep both cores
    // busy: identity + gamification routes went from 190 s to 48 s of wall time for the same CPU.
    // VITEST_MAX_WORKERS overrides (1 for a serial run).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 3,
    minWorkers: 1,
    reporters: ['default', './packages/db/src/testing/summaryReporter.ts'],
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', NODE_ENV: 'test' },
  },
});
