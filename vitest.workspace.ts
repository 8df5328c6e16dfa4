import { defineWorkspace } from 'vitest/config';

/**
 * The test projects, by tier (Emmett's naming): `*.unit.spec.ts` need nothing; `*.int.spec.ts` get a
 * PostgreSQL server (TEST_DATABASE_URL or embedded) and a fresh database per file; `*.e2e.spec.ts` start
 * real processes. vitest.config.ts
 * hands this list to vitest as its `projects`, so this file is the one source of the project list.
 */
export default defineWorkspace([
  {
    test: {
      name: 'unit',
      include: ['packages/*/src/**/*.unit.spec.ts', 'apps/*/src/**/*.unit.spec.ts', 'scripts/**/*.unit.spec.ts'],
    },
  },
  {
    test: {
      name: 'int',
      include: ['packages/*/src/**/*.int.spec.ts', 'apps/*/src/**/*.int.spec.ts'],
      globalSetup: ['packages/db/src/testing/globalSetup.ts', 'packages/db/src/testing/entryBundles.ts'],
      // Each file has its own database and app already; sharing a worker's loaded modules across files saves
      // evaluating the whole module graph (fastify, bullmq, the gRPC client, every context) once per file,
      // which was about three quarters of the suite's CPU. Effective only with the root's
      // poolOptions.forks.isolate false (vitest.config.ts): otherwise every file gets a fresh process anyway.
      isolate: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    // Whole processes as a user starts them (npm start with nothing configured): own embedded server each.
    // Children start from the run's bundles of the same sources (entryBundles.ts); start.e2e keeps tsx.
    test: {
      name: 'e2e',
      include: ['apps/*/src/**/*.e2e.spec.ts'],
      exclude: ['apps/bench/src/faults/**'],
      globalSetup: ['packages/db/src/testing/entryBundles.ts'],
      testTimeout: 120_000,
      hookTimeout: 120_000,
    },
  },
  {
    // The fault e2e (a private PostgreSQL stopped under write load, a SIGTERM under load) runs last, alone, as
    // `npm run faults` does: its time bounds are about the service, not about three other test workers on
    // the same two cores. The other tiers run in parallel before it.
    test: {
      name: 'faults',
      include: ['apps/bench/src/faults/**/*.e2e.spec.ts'],
      globalSetup: ['packages/db/src/testing/entryBundles.ts'],
      sequence: { groupOrder: 1 },
      testTimeout: 300_000,
      hookTimeout: 300_000,
    },
  },
]);
