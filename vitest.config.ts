import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace';

export default defineConfig({
  test: {
    projects,
    // VITEST_MAX_WORKERS=3 runs three files at a time: the int and e2e specs mostly wait (on commits, on
    // child processes), so on two cores identity + gamification routes took 48 s instead of 190 s for the
    // same CPU (on a machine other runs shared). Not the default: projection catch-up reads only below the cluster-wide snapshot xmin, so
    // a transaction open in another file's database can hold back a spec's single `catchUp()` (seen once
    // in auditLog.int.spec.ts). Unset, vitest keeps its own default (cores - 1: one worker here).
    ...(Number(process.env.VITEST_MAX_WORKERS) > 0
      ? { maxWorkers: Number(process.env.VITEST_MAX_WORKERS), minWorkers: 1 }
      : {}),
    reporters: ['default', './packages/db/src/testing/summaryReporter.ts'],
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', NODE_ENV: 'test' },
  },
});
