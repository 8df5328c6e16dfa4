import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { loadConfig, openRuntime, type Runtime } from '@qiraa/runtime';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from './buildApp';
import { TEST_JWT_SECRET } from './testing/testApp';

/**
 * The app builds response serializers on first use (plugins/lazySerializers.ts), so a response schema
 * fast-json-stringify cannot build no longer stops the start-up. Here every one is built, as fastify's own
 * start-up did: `ready()` rejects naming the route whose schema fails.
 */
let db: TestDatabase;
let runtime: Runtime;
beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openRuntime(
    loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
    { role: 'api' },
  );
});
afterAll(async () => {
  await runtime?.close();
  await db?.drop();
});

const broken = { schema: { response: { 200: { $ref: 'no-such-schema#' } } } };

it("builds every route's response serializer", async () => {
  const app = await buildApp(runtime, { logLevel: 'silent', serializers: 'eager' });
  await app.ready();
  expect(app.registeredRoutes.length).toBeGreaterThan(200);
  await app.close();
});

it('fails the build on a response schema it cannot serialize with; lazily, only that route fails', async () => {
  const eager = await buildApp(runtime, { logLevel: 'silent', serializers: 'eager' });
  eager.get('/broken', broken, async () => ({}));
  await expect(eager.ready()).rejects.toThrow(/GET: \/broken/);

  const lazy = await buildApp(runtime, { logLevel: 'silent' });
  lazy.get('/broken', broken, async () => ({}));
  await lazy.ready();
  expect((await lazy.inject({ url: '/healthz' })).statusCode).toBe(200);
  expect((await lazy.inject({ url: '/broken' })).statusCode).toBe(500);
  await lazy.close();
});
