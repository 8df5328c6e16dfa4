import { buildApp } from '@qiraa/app';
import { client, TEST_JWT_SECRET, useTestWorld } from '@qiraa/app/testing';
import { catchUp, rebuildProjection } from '@qiraa/projections';
import { loadConfig, openRuntime, type Runtime } from '@qiraa/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gamificationLedgerProjection } from '../projections/ledgerProjection';

/**
 * Rebuilding the ledger while two API instances (each its own runtime and pool: real concurrency on
 * PostgreSQL) ingest and read it: no request fails, no rebuild fails, and the swapped-in read model is
 * exactly what a clean rebuild of the whole log gives (docs/architecture.md, "One lock order").
 */
const { t, w } = useTestWorld();
let second: { runtime: Runtime; app: FastifyInstance };
const students: number[] = [];

beforeAll(async () => {
  const runtime = await openRuntime(
    loadConfig({ DATABASE_URL: t.db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
    { role: 'api' },
  );
  second = { runtime, app: await buildApp(runtime, { logLevel: 'silent' }) };
  for (let i = 0; i < 6; i++) {
    const res = await client(t.app, w.a.adminToken).post(`/api/classes/${w.a.classId}/students`, {
      fullNameAr: 'طالب',
    });
    expect(res.statusCode, res.body).toBe(201);
    students.push(res.json().studentId);
  }
}, 60_000);
afterAll(async () => {
  await second?.app.close();
  await second?.runtime.close();
});

const SOURCE_KINDS = ['band_progression', 'subskill_state_up', 'bundle_completion'];

async function ledgerRows(): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of gamificationLedgerProjection.tables) {
    const rows = await t.db.sql<{ row: string }[]>`select to_jsonb(x)::text as row from ${t.db.sql(table)} x`;
    tables[table] = rows.map((r) => r.row).sort();
  }
  return tables;
}

describe('a ledger rebuild beside live ingest', () => {
  it('rebuilds three times while two instances write: no 5xx, no failed rebuild, no drift', async () => {
    let writing = true;
    let serial = 0;
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const writer = async (app: FastifyInstance, lane: number) => {
      const engine = client(app, w.a.adminToken);
      while (writing) {
        const n = serial++;
        const res = await engine.post('/api/gamification/mastery-events', {
          kind: 'mastery_event',
          engineEventId: `rebuild-${lane}-${n}`,
          studentId: students[n % students.length],
          sourceKind: SOURCE_KINDS[n % SOURCE_KINDS.length],
          // A new school day now and then: new day rows and rollups, not only counts.
          occurredAt: new Date(Date.UTC(2026, 10, 1 + Math.floor(n / 40), 8)).toISOString(),
          sessionId: `session-${n % 5}`,
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500) failures.push(res.body);
      }
    };
    // Readers of the live read model beside them: answered throughout (they may wait for a swap, never fail).
    let reads = 0;
    const reader = async (app: FastifyInstance) => {
      const admin = client(app, w.a.adminToken);
      while (writing) {
        const res = await admin.get(`/api/students/${students[reads++ % students.length]}/gamification/profile`);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500) failures.push(res.body);
      }
    };
    const writers = [t.app, second.app].flatMap((app, i) => [
      ...[0, 1, 2].map((k) => writer(app, i * 3 + k)),
      reader(app),
    ]);

    const rebuilds: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        // Let the writers build up state first (and between rebuilds).
        await new Promise((resolve) => setTimeout(resolve, 400));
        try {
          await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, gamificationLedgerProjection, {
            batchSize: 50,
          });
          rebuilds.push('ok');
        } catch (error) {
          rebuilds.push((error as Error).message);
        }
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }

    expect({ failed: failures.length, first: failures[0] }).toEqual({ failed: 0, first: undefined });
    expect(rebuilds).toEqual(['ok', 'ok', 'ok']);
    expect([...statuses.keys()].sort()).toEqual([200, 201]);
    expect(reads).toBeGreaterThan(0);
    // Every acknowledged event is in the read model once, and the model is what the log rebuilds to.
    const [stored] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from gam_mastery_events where student_id = any(${students})`;
    expect(stored!.n).toBe(statuses.get(201));
    await catchUp({ sql: t.db.sql, store: t.runtime.store }, gamificationLedgerProjection);
    const live = await ledgerRows();
    await rebuildProjection({ sql: t.db.sql, store: t.runtime.store }, gamificationLedgerProjection);
    expect(await ledgerRows()).toEqual(live);
  }, 120_000);
});
