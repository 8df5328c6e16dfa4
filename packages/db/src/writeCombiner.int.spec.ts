import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from './connect';
import { createTestDatabase, type TestDatabase } from './testing';
import { inTransaction } from './unitOfWork';
import { disableWriteCombiner, enableWriteCombiner, writeCombiner } from './writeCombiner';

let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = db.connectAgain(6);
  await db.sql`create table wc_streams (id text primary key, version int not null)`;
  await db.sql`create table wc_rows (id text primary key, stream text not null, tx text not null)`;
  await db.sql`
    create table wc_deferred (k int, constraint wc_deferred_k unique (k) deferrable initially deferred)`;
});
afterAll(async () => {
  await db?.drop();
});

class Refused extends Error {}

/** A command on its own state: append row `id` to `stream` if the stream is at `expected` (else refused). */
const command = (stream: string, expected: number, id: string) => async (uow: { sql: Sql }) => {
  const tx = uow.sql;
  const moved = await tx`
    insert into wc_streams (id, version) values (${stream}, 1)
    on conflict (id) do update set version = wc_streams.version + 1 where wc_streams.version = ${expected}
    returning version`;
  if (expected === 0 ? moved.length === 0 || moved[0]!.version !== 1 : moved.length === 0) {
    throw new Refused(`${id}: ${stream} is not at ${expected}`);
  }
  const [row] = await tx<{ tx: string }[]>`
    insert into wc_rows (id, stream, tx) values (${id}, ${stream}, pg_current_xact_id()::text) returning tx`;
  return { id, tx: row!.tx };
};

describe('write combiner', () => {
  it('answers each of many concurrent commands on its own state; refusals and errors fail only themselves', async () => {
    const combiner = writeCombiner(sql, { windowMs: 20, maxBatch: 16 });
    const settled = await Promise.allSettled(
      Array.from({ length: 48 }, (_, i) => {
        // Streams s0..s7, each asked six times to move from version 0: exactly one of each wins (conflicts);
        // every 5th command inserts an id another one already took (a unique violation: a database error);
        // every 7th throws before it writes anything.
        const stream = `s${i % 8}`;
        const id = i % 5 === 4 ? `r${i - 1}` : `r${i}`;
        if (i % 7 === 6) {
          return combiner.run(async (uow) => {
            await uow.sql`insert into wc_rows (id, stream, tx) values (${`thrown${i}`}, 'x', 'x')`;
            throw new Error(`thrown ${i}`);
          });
        }
        return combiner.run(command(stream, 0, id) as never);
      }),
    );
    const ok = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value as { id: string; tx: string }] : []));
    const errors = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as Error] : []));
    // One winner per stream, answered with its own result.
    expect(ok).toHaveLength(8);
    expect(new Set(ok.map((r) => r.id)).size).toBe(8);
    for (const e of errors) {
      expect(e instanceof Refused || /thrown|duplicate key/.test(e.message), e.message).toBe(true);
    }
    const rows = await db.sql<{ id: string; stream: string; tx: string }[]>`select * from wc_rows order by id`;
    // Exactly what was acknowledged is stored: nothing of a refused or failed command.
    expect(rows.map((r) => r.id).sort()).toEqual(ok.map((r) => r.id).sort());
    expect((await db.sql`select id, version from wc_streams order by id`).map((r) => r.version)).toEqual(
      Array(8).fill(1),
    );
    // Commands shared transactions: fewer transactions than commands.
    const stats = combiner.stats();
    expect(stats.units).toBe(48);
    expect(stats.batches).toBeLessThan(48);
    expect(stats.largestBatch).toBeGreaterThan(1);
    expect(stats.rolledBack).toBe(48 - 8);
    expect(stats.failedBatches).toBe(0);
    await db.sql`truncate wc_rows, wc_streams`;
  });

  it('decides each command on what the earlier ones of its batch wrote (version 0, 1, 2 … in one window)', async () => {
    const combiner = writeCombiner(sql, { windowMs: 50, maxBatch: 32 });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => combiner.run(command('seq', i, `seq${i}`) as never)),
    );
    // Sent in order, they run in order: each finds the stream at the version it expects.
    expect(results.map((r) => r.status)).toEqual(Array(10).fill('fulfilled'));
    const txs = new Set(results.map((r) => (r as PromiseFulfilledResult<{ tx: string }>).value.tx));
    expect(txs.size).toBeLessThan(10);
    const [stream] = await db.sql`select version from wc_streams where id = 'seq'`;
    expect(stream).toEqual({ version: 10 });
    await db.sql`truncate wc_rows, wc_streams`;
  });

  it('runs afterCommit only for the commands that committed, after the commit', async () => {
    const combiner = writeCombiner(sql, { windowMs: 20, maxBatch: 8 });
    const seen: string[] = [];
    const observer = db.connectAgain(1);
    const check = (id: string) => async () => {
      const [row] = await observer`select count(*)::int as n from wc_rows where id = ${id}`;
      seen.push(`${id}:${row!.n}`);
    };
    const pending: Array<Promise<unknown>> = [];
    const settled = await Promise.allSettled([
      combiner.run(async (uow) => {
        await command('cb1', 0, 'cb1')(uow as never);
        uow.afterCommit(() => pending.push(check('cb1')()));
      }),
      combiner.run(async (uow) => {
        await command('cb1', 0, 'cb2')(uow as never); // refused: cb1 took version 1
        uow.afterCommit(() => pending.push(check('cb2')()));
      }),
    ]);
    await Promise.all(pending);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected']);
    // Visible to another connection when the callback ran: it ran after the shared commit.
    expect(seen).toEqual(['cb1:1']);
    await db.sql`truncate wc_rows, wc_streams`;
  });

  it('refuses every command of a batch whose COMMIT fails, and stores none of them', async () => {
    const combiner = writeCombiner(sql, { windowMs: 50, maxBatch: 3 });
    // Each insert is fine alone; two in one transaction break a deferred constraint checked at COMMIT.
    const settled = await Promise.allSettled([
      combiner.run((uow) => uow.sql`insert into wc_deferred values (1)`),
      combiner.run((uow) => uow.sql`insert into wc_deferred values (2)`),
      combiner.run((uow) => uow.sql`insert into wc_deferred values (1)`),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const s of settled) expect(String((s as PromiseRejectedResult).reason.message)).toMatch(/wc_deferred_k/);
    expect(await db.sql`select * from wc_deferred`).toHaveLength(0);
    expect(combiner.stats().failedBatches).toBe(1);
    // The pool is fine afterwards.
    await combiner.run((uow) => uow.sql`insert into wc_deferred values (3)`);
    expect(await db.sql`select k from wc_deferred`).toEqual([{ k: 3 }]);
  });

  it('survives a deadlock victim in a batch (a batch and another transaction locking in opposite orders)', async () => {
    await db.sql`insert into wc_streams values ('X', 0), ('Y', 0)`;
    const combiner = writeCombiner(sql, { windowMs: 2000, maxBatch: 2 });
    const bump = (id: string) => (uow: { sql: Sql }) =>
      uow.sql`update wc_streams set version = version + 1 where id = ${id}`.then(() => id);
    const signal = () => {
      let fire!: () => void;
      const fired = new Promise<void>((resolve) => {
        fire = resolve;
      });
      return { fire, fired };
    };
    const waiters = async () => {
      for (let i = 0; i < 250; i++) {
        const [w] = await db.sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`;
        if (w!.n > 0) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('nobody waits for a lock');
    };
    const holdsX = signal();
    const gate = signal();
    // The batch: X, then (once the other transaction holds Y) Y.
    const a1 = combiner.run(async (uow) => {
      const id = await bump('X')(uow as never);
      holdsX.fire();
      return id;
    });
    const a2 = combiner.run(async (uow) => {
      await gate.fired;
      return bump('Y')(uow as never);
    });
    await holdsX.fired;
    // The other: Y, then X once the batch's unit waits for Y. The unit waited first, so its deadlock check
    // fires first: it is the victim; its batch is rolled back and run again unit by unit (the other commits
    // meanwhile, its locks gone).
    const other = db.connectAgain(1);
    const attempt = (first: boolean) =>
      inTransaction(other, async (uow) => {
        await bump('Y')(uow as never);
        gate.fire();
        if (first) await waiters();
        return bump('X')(uow as never);
      });
    // Usually the unit is the victim (it waited first); when PostgreSQL picks the other transaction, that one
    // retries as any caller would, and the batch commits as it is.
    const plain = attempt(true).catch((error) => (error.code === '40P01' ? attempt(false) : Promise.reject(error)));
    expect(await Promise.all([a1, a2, plain])).toEqual(['X', 'Y', 'X']);
    expect(combiner.stats()).toMatchObject({ failedBatches: 0 });
    expect(await db.sql`select id, version from wc_streams where id in ('X', 'Y') order by id`).toEqual([
      { id: 'X', version: 2 },
      { id: 'Y', version: 2 },
    ]);
  });

  it('runs one batch at a time: two batches never hold locks the other waits for', async () => {
    await db.sql`insert into wc_streams values ('P', 0), ('Q', 0)`;
    const combiner = writeCombiner(sql, { windowMs: 5, maxBatch: 2 });
    const bump = (id: string) => (uow: { sql: Sql }) =>
      uow.sql`update wc_streams set version = version + 1 where id = ${id}`.then(() => id);
    // Eight batches of two, crossing P and Q in both orders, all at once: without the one-at-a-time rule
    // they deadlock (each costs deadlock_timeout and a retry).
    const all = Array.from({ length: 16 }, (_, i) =>
      combiner.run(bump(i % 4 < 2 ? ['P', 'Q'][i % 2]! : ['Q', 'P'][i % 2]!) as never),
    );
    await Promise.all(all);
    expect(combiner.stats()).toMatchObject({ units: 16, retriedAlone: 0, rolledBack: 0, batches: 8 });
  });

  it('is used by inTransaction({ combine: true }) only while enabled on the pool', async () => {
    const txOf = () =>
      inTransaction(sql, async (uow) => (await uow.sql`select pg_current_xact_id()::text as tx`)[0]!.tx, {
        combine: true,
      });
    const plain = await Promise.all([txOf(), txOf(), txOf()]);
    expect(new Set(plain).size).toBe(3);
    const combiner = enableWriteCombiner(sql, { windowMs: 30, maxBatch: 8 });
    try {
      const combined = await Promise.all([txOf(), txOf(), txOf()]);
      expect(new Set(combined).size).toBe(1);
      expect(combiner.stats().units).toBe(3);
    } finally {
      disableWriteCombiner(sql);
    }
  });
});
