import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace';

export default defineConfig({
  test: {
    projects,
    // Three files at a time: the int and e2e specs mostly wait (on commits, on child processes), so on two
    // cores the suite takes about 220 s instead of 350 s for the same CPU. Safe since Projector.catchUp waits
    // out events held back by another file's open transaction (catchUpSettled). VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) > 0 ? Number(process.env.VITEST_MAX_WORKERS) : 3,
    minWorkers: 1,
    reporters: ['default', './packages/db/src/testing/summaryReporter.ts'],
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', NODE_ENV: 'test' },
  },
});
