import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import type { BoundedContext, Clock } from '@qiraa/kernel';
import { contexts as defaultContexts, loadConfig, openRuntime, type Runtime } from '@qiraa/runtime';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../buildApp';

export const TEST_JWT_SECRET = 'qiraa-test-secret-0123456789abcdef0123456789';
/** METRICS_TOKEN of every test app: /metrics answers only `Authorization: Bearer` this. */
export const TEST_METRICS_TOKEN = 'qiraa-test-metrics-0123456789';

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  db: TestDatabase;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database: requests go through fastify.inject, projections run in-process.
 * Extra contexts let a spec add routes of its own (e.g. to exercise the error mapper).
 */
export async function createTestApp(
  options: { extraContexts?: BoundedContext[]; env?: NodeJS.ProcessEnv; clock?: Clock } = {},
) {
  const db = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    JWT_SECRET: TEST_JWT_SECRET,
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...options.env,
  });
  const runtime = await openRuntime(config, {
    role: 'api',
    contexts: [...defaultContexts, ...(options.extraContexts ?? [])],
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const app = await buildApp(runtime, {
    logLevel: 'silent',
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
  });
  await app.ready();
  return {
    app,
    runtime,
    db,
    async close() {
      await app.close();
      await runtime.close();
      await db.drop();
    },
  } satisfies TestApp;
}
