import { buildApp } from '@qiraa/app';
import { client, TEST_JWT_SECRET, useTestWorld } from '@qiraa/app/testing';
import { defineContext } from '@qiraa/kernel';
import { contexts, loadConfig, openRuntime } from '@qiraa/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerOf } from '../engine/caller';
import { tenantContextCache } from './tenantContextCache';

/** A route that reads nothing but the tenant context, so a request touches the database only through it. */
const probe = defineContext({
  name: 'tenant-context-probe',
  projections: [],
  routes: () => async (app) => {
    app.get('/probe/caller', async (request) => callerOf(request));
  },
});

const { t, w } = useTestWorld({ extraContexts: [probe] });
const caller = (token: string, app: FastifyInstance = t.app) => client(app, token).get('/api/probe/caller');

/** A second API process on the same database: its own pools, its own cache, its own listener. */
let other: { app: FastifyInstance; close(): Promise<void> };
beforeAll(async () => {
  const runtime = await openRuntime(
    loadConfig({ DATABASE_URL: t.db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
    { role: 'api', contexts: [...contexts, probe] },
  );
  const app = await buildApp(runtime, { logLevel: 'silent' });
  await app.ready();
  other = {
    app,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
});
afterAll(() => other?.close());

const terminateListeners = () =>
  t.db.sql`select pg_terminate_backend(pid) from pg_stat_activity
           where application_name = 'qiraa-tenant-context' and datname = current_database()`;

describe('tenant-context cache', () => {
  it('answers a known caller without reading users, organizations or enrolments again', async () => {
    expect((await caller(w.a.teacherToken)).statusCode).toBe(200);
    const locker = await t.db.sql.reserve();
    try {
      // Without the cache the next request would wait on this lock (and the test time out).
      await locker`begin`;
      await locker`lock table users, organizations, class_students in access exclusive mode`;
      const res = await caller(w.a.teacherToken);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ userId: w.a.teacherId, persona: 'TEACHER', organizationId: w.a.id });
    } finally {
      await locker`rollback`;
      locker.release();
    }
  });

  it('refuses the next request of a student another API process deactivated', async () => {
    expect((await caller(w.b.studentToken)).statusCode).toBe(200);
    const res = await client(other.app, w.b.adminToken).post(
      `/api/classes/${w.b.classId}/students/${w.b.studentId}/deactivate`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = await caller(w.b.studentToken);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('SESSION_REVOKED');
  });

  it('refuses the next request of a user disabled through an independent connection, in both processes', async () => {
    const writer = t.db.connectAgain();
    expect((await caller(w.a.parentToken)).statusCode).toBe(200);
    expect((await caller(w.a.parentToken, other.app)).statusCode).toBe(200);
    await writer`update users set disabled_at = now() where id = ${w.a.parentId}`;
    try {
      for (const app of [t.app, other.app]) {
        const res = await caller(w.a.parentToken, app);
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('SESSION_REVOKED');
      }
    } finally {
      await writer`update users set disabled_at = null where id = ${w.a.parentId}`;
    }
    expect((await caller(w.a.parentToken)).statusCode).toBe(200);
  });

  it('refuses every cached user of an organization once it is disabled, and takes them back when it is enabled', async () => {
    const tokens = [w.b.teacherToken, w.b.principalToken, w.b.managerToken];
    for (const token of tokens) expect((await caller(token)).statusCode).toBe(200);
    await t.db.connectAgain()`update organizations set disabled_at = now() where id = ${w.b.id}`;
    try {
      for (const token of tokens) expect((await caller(token)).statusCode).toBe(401);
      expect((await caller(w.a.teacherToken)).statusCode).toBe(200);
    } finally {
      await t.db.sql`update organizations set disabled_at = null where id = ${w.b.id}`;
    }
    for (const token of tokens) expect((await caller(token)).statusCode).toBe(200);
  });

  it('forgets what it held when its listener reconnects (notifications sent meanwhile are lost)', async () => {
    expect((await caller(w.a.managerToken)).statusCode).toBe(200);
    const [terminated] = await terminateListeners();
    expect(terminated).toBeDefined();
    const manager = await t.db.sql<{ id: bigint }[]>`
      update users set disabled_at = now() where organization_id = ${w.a.id} and primary_persona = 'MANAGER'
      returning id`;
    try {
      expect(manager).toHaveLength(1);
      expect((await caller(w.a.managerToken)).statusCode).toBe(401);
    } finally {
      await t.db.sql`update users set disabled_at = null where id = ${manager[0]!.id}`;
    }
    expect((await caller(w.a.managerToken)).statusCode).toBe(200);
  });

  it('keeps at most its capacity and caches no refusal', async () => {
    const cache = tenantContextCache(t.db.sql, { capacity: 2 });
    try {
      await cache.ready();
      for (const id of [w.a.teacherId, w.a.parentId, w.b.teacherId]) {
        expect((await cache.load(id))?.userId).toBe(id);
      }
      expect(cache.size).toBe(2);
      expect(await cache.load(999_999)).toBeNull();
      expect(cache.size).toBe(2);
    } finally {
      await cache.close();
    }
  });
});
