import { inTransaction } from '@qiraa/db';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { type EventStore, postgresEventStore, type Recorded, untilNothingWaiting } from '@qiraa/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInline } from './applyInline';
import { catchUp } from './catchUp';
import { inProcessProjector } from './inProcessProjector';
import { defineProjection, type Projection } from './projection';
import { projectionStatus } from './projectionStatus';
import { rebuildProjection } from './rebuildProjection';
import { runProjectionBatch } from './runProjectionBatch';

let db: TestDatabase;
let store: EventStore;

/** A small read model for the runner's tests: one row per Tallied event, plus a running total per key. */
type TallyEvent = { type: 'Tallied'; data: { key: string; amount: number } };

function tallyProjection(
  version = 1,
  onApply?: () => Promise<void>,
  batches?: Array<readonly Recorded<TallyEvent>[]>,
): Projection {
  return defineProjection<TallyEvent>({
    name: 'tally',
    version,
    handles: ['Tallied'],
    tables: ['tally_rows'],
    async applyBatch({ sql, table }, events) {
      await onApply?.();
      batches?.push(events);
      const rows = events.map((e) => ({ event_id: e.eventId, ...e.data }));
      await sql`
        insert into ${sql(table('tally_rows'))} (event_id, key, amount, version_seen)
        select r.event_id, r.key, r.amount, ${version}
        from jsonb_to_recordset(${sql.json(rows)}) as r(event_id uuid, key text, amount int)
        on conflict do nothing`;
    },
  });
}

const tally = (key: string, amount: number) => ({ type: 'Tallied', data: { key, amount } });
/** Another test file's open transaction can hold fresh events back for a moment (cluster-wide xmin). */
const settled = async () => expect(await untilNothingWaiting(store)).toBe(true);
const total = async (key: string) => {
  const [row] = await db.sql<
    { s: bigint | null }[]
  >`select sum(amount)::bigint as s from tally_rows where key = ${key}`;
  return Number(row?.s ?? 0n);
};

/**
 * A second real connection appends one event (amount 1) in a transaction that stays open until released:
 * its xid is older, so events committed meanwhile are held back from readers until it ends.
 */
async function openSlowAppend(stream: string, key: string) {
  const slowSql = db.connectAgain(1);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let opened!: () => void;
  const isOpen = new Promise<void>((r) => (opened = r));
  const slow = inTransaction(slowSql, async (uow) => {
    await postgresEventStore(slowSql).append(stream, [tally(key, 1)], { uow });
    opened();
    await released;
  });
  await isOpen;
  return { release, slow };
}

beforeAll(async () => {
  db = await createTestDatabase();
  store = postgresEventStore(db.sql);
  await db.sql`
    create table tally_rows (
      event_id uuid primary key, key text not null, amount int not null, version_seen int not null
    )`;
  await db.sql`create index tally_rows_key_idx on tally_rows (key)`;
  await db.sql`
    create function tally_no_update() returns trigger language plpgsql as $$
    begin raise exception 'tally_rows refuses updates'; end; $$`;
  await db.sql`create trigger tally_rows_no_update before update on tally_rows for each row execute function tally_no_update()`;
});
afterAll(() => db.drop());

describe('projection runner', () => {
  it('applies events after the checkpoint and stores the checkpoint in the same transaction', async () => {
    const p = tallyProjection();
    await store.append('tally-a', [tally('a', 2), { type: 'Ignored', data: {} }, tally('a', 3)]);
    await settled();
    const first = await runProjectionBatch({ sql: db.sql, store }, p, 500);
    expect(first).toMatchObject({ kind: 'applied', applied: 2, caughtUp: true });
    expect(await total('a')).toBe(5);
    const again = await runProjectionBatch({ sql: db.sql, store }, p, 500);
    expect(again).toMatchObject({ kind: 'applied', applied: 0, caughtUp: true });
    const [cp] = await db.sql`select checkpoint, events_applied from projection_checkpoints where name = 'tally'`;
    expect(cp?.checkpoint).toBe(await store.head());
    expect(cp?.events_applied).toBe(2n);
  });

  it('moves in batches of the given size until caught up', async () => {
    const p = tallyProjection();
    await store.append(
      'tally-b',
      Array.from({ length: 7 }, () => tally('b', 1)),
    );
    await settled();
    const one = await runProjectionBatch({ sql: db.sql, store }, p, 3);
    expect(one).toMatchObject({ applied: 3, caughtUp: false });
    const rest = await catchUp({ sql: db.sql, store }, p, 3);
    expect(rest).toMatchObject({ kind: 'caught_up', applied: 4, rebuilt: false });
    expect(await total('b')).toBe(7);
  });

  it('hands the projection its whole batch in one call, in log order', async () => {
    const batches: Array<readonly Recorded<TallyEvent>[]> = [];
    const p = tallyProjection(1, undefined, batches);
    await store.append('tally-batch', [tally('batch', 1), tally('batch', 2), tally('batch', 3)]);
    await store.append('tally-batch', [tally('batch', 4)]);
    await settled();
    await catchUp({ sql: db.sql, store }, p);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((e) => e.data.amount)).toEqual([1, 2, 3, 4]);
    expect(await total('batch')).toBe(10);
  });

  it('leaves the checkpoint and the rows untouched when a batch fails', async () => {
    let fail = true;
    const p = tallyProjection(1, async () => {
      if (fail) throw new Error('handler broke');
    });
    await store.append('tally-c', [tally('c', 10)]);
    await settled();
    await expect(runProjectionBatch({ sql: db.sql, store }, p)).rejects.toThrow('handler broke');
    expect(await total('c')).toBe(0);
    fail = false;
    await catchUp({ sql: db.sql, store }, p);
    expect(await total('c')).toBe(10);
  });

  it('lets only one of two concurrent runners work a projection (two real connections)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const isInside = new Promise<void>((r) => (entered = r));
    const slow = tallyProjection(1, async () => {
      entered();
      await gate;
    });
    await store.append('tally-d', [tally('d', 1)]);
    await settled();
    const other = db.connectAgain(2);
    const first = runProjectionBatch({ sql: db.sql, store }, slow);
    await isInside;
    const second = await runProjectionBatch({ sql: other, store }, tallyProjection());
    expect(second).toEqual({ kind: 'busy' });
    release();
    expect(await first).toMatchObject({ kind: 'applied', applied: 1 });
    expect(await total('d')).toBe(1);
  });

  it('applies a command’s events inline, and the runner’s second pass changes nothing', async () => {
    const p = tallyProjection();
    await catchUp({ sql: db.sql, store }, p);
    await inTransaction(db.sql, async (uow) => {
      const result = await store.append('tally-e', [tally('e', 4)], { uow });
      if (result.kind !== 'appended') throw new Error('append failed');
      await applyInline(uow, p, result.events);
    });
    expect(await total('e')).toBe(4);
    await catchUp({ sql: db.sql, store }, p);
    expect(await total('e')).toBe(4);
  });

  it('never waits for a second pool connection while holding the projection lock (a full pool of inline appliers)', async () => {
    const p = tallyProjection();
    await catchUp({ sql: db.sql, store }, p);
    // A pool of two: the runner's transaction and one command. The runner's read starts the command, which
    // takes the pool's other connection and applies inline (shared projection lock); the read goes on when
    // that command has committed or is seen waiting for the lock. Reading while holding the lock would
    // then need a third connection: it waited until PostgreSQL ended the idle transaction (60 s).
    const pool = db.connectAgain(2);
    const poolStore = postgresEventStore(pool);
    let command: Promise<void> | undefined;
    const blockedOnLock = async () => {
      const [row] = await db.sql<{ n: number }[]>`
        select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`;
      return (row?.n ?? 0) > 0;
    };
    const reading: EventStore = {
      ...poolStore,
      async readAll(options) {
        if (!command) {
          let done = false;
          command = inTransaction(pool, async (uow) => {
            const result = await poolStore.append('tally-pool', [tally('pool', 5)], { uow });
            if (result.kind !== 'appended') throw new Error('append failed');
            await applyInline(uow, p, result.events);
          }).then(() => {
            done = true;
          });
          while (!done && !(await blockedOnLock())) await new Promise((r) => setTimeout(r, 10));
        }
        return poolStore.readAll(options);
      },
    };
    const result = await catchUp({ sql: pool, store: reading }, p);
    await command;
    expect(result.kind).toBe('caught_up');
    await catchUp({ sql: db.sql, store }, p);
    expect(await total('pool')).toBe(5);
  });

  it('rebuilds from position zero into a shadow table and swaps it in, keeping index names', async () => {
    const p = tallyProjection();
    await settled();
    await catchUp({ sql: db.sql, store }, p);
    const before = await db.sql`select event_id, key, amount from tally_rows order by event_id`;
    await db.sql`delete from tally_rows where key = 'a'`; // drift the live read model on purpose
    const progress: number[] = [];
    const result = await rebuildProjection({ sql: db.sql, store }, p, {
      batchSize: 2,
      onProgress: ({ applied }) => progress.push(applied),
    });
    expect(result.applied).toBe(before.length);
    expect(progress.at(-1)).toBe(before.length);
    expect(progress.length).toBeGreaterThan(2);
    const after = await db.sql`select event_id, key, amount from tally_rows order by event_id`;
    expect(after).toEqual(before);
    const indexes = await db.sql<{ relname: string }[]>`
      select c.relname from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'tally_rows'::regclass order by 1`;
    expect(indexes.map((i) => i.relname)).toEqual(['tally_rows_key_idx', 'tally_rows_pkey']);
    expect(await db.sql`select to_regclass('tally_rows__rebuild') as t`).toEqual([{ t: null }]);
    await expect(db.sql`update tally_rows set amount = 0`).rejects.toThrow(/refuses updates/);
  });

  it('includes events appended while a rebuild is filling its shadow table', async () => {
    let appended = false;
    const p = tallyProjection(1, async () => {
      if (!appended) {
        appended = true;
        await store.append('tally-f', [tally('f', 6)]);
      }
    });
    await rebuildProjection({ sql: db.sql, store }, p, { batchSize: 1 });
    expect(await total('f')).toBe(6);
  });

  it('rebuilds a projection whose version moved on before running it again, and reports status', async () => {
    const v2 = tallyProjection(2);
    const [statusBefore] = await projectionStatus({ sql: db.sql, store }, [v2]);
    expect(statusBefore).toMatchObject({ name: 'tally', version: 2, storedVersion: 1, needsRebuild: true });
    const result = await catchUp({ sql: db.sql, store }, v2);
    expect(result).toMatchObject({ kind: 'caught_up', rebuilt: true });
    const seen = await db.sql`select distinct version_seen from tally_rows`;
    expect(seen).toEqual([{ version_seen: 2 }]);
    const [statusAfter] = await projectionStatus({ sql: db.sql, store }, [v2]);
    expect(statusAfter).toMatchObject({ storedVersion: 2, lag: 0, lagSeconds: 0, needsRebuild: false });
    expect(statusAfter?.checkpoint).toBe(statusAfter?.head);
    expect(await runProjectionBatch({ sql: db.sql, store }, tallyProjection(1))).toEqual({
      kind: 'newer_version_stored',
      storedVersion: 2,
    });
  });

  it('reports the age of the oldest event not yet projected (lagSeconds), and 0 once caught up', async () => {
    const aged = defineProjection({ name: 'aged', version: 1, handles: ['Aged'], tables: [], async applyBatch() {} });
    await store.append('aged-1', [{ type: 'Aged', data: {} }]);
    await store.append('aged-2', [{ type: 'Aged', data: {} }]);
    await settled();
    // The age of the first Aged event on the database's clock, just before and just after the status read.
    const age = async () =>
      Number(
        (
          await db.sql<{ s: string }[]>`
            select extract(epoch from now() - min(created_at))::text as s from es_events where event_type = 'Aged'`
        )[0]!.s,
      );
    const before = await age();
    const [waiting] = await projectionStatus({ sql: db.sql, store }, [aged]);
    const after = await age();
    expect(waiting).toMatchObject({ name: 'aged', lag: 2 });
    expect(waiting!.lagSeconds).toBeGreaterThanOrEqual(before - 0.002);
    expect(waiting!.lagSeconds).toBeLessThanOrEqual(after + 0.002);
    await catchUp({ sql: db.sql, store }, aged);
    const [current] = await projectionStatus({ sql: db.sql, store }, [aged]);
    expect(current).toMatchObject({ lag: 0, lagSeconds: 0 });
  });

  it('looks again when the events it was woken for wait behind an older open transaction', async () => {
    const p = tallyProjection(2);
    const projector = inProcessProjector({ sql: db.sql, store }, [p], { sweepIntervalMs: 60_000 });
    const listened = postgresEventStore(db.sql);
    listened.onAppended((events) => projector.wake(events));
    await projector.start();
    await catchUp({ sql: db.sql, store }, p);

    // A second real connection takes its xid first and stays open: the fast event behind it is committed
    // but not yet readable when its wake-up runs the projection.
    const { release, slow } = await openSlowAppend('tally-slow', 'h');
    await listened.append('tally-fast', [tally('h', 10)]);
    const batch = await store.readAll({ after: await store.head(), limit: 10, types: ['Tallied'] });
    expect(batch).toMatchObject({ caughtUp: true, waiting: true });
    await new Promise((r) => setTimeout(r, 300));
    release();
    await slow;
    // No further wake-up and no sweep within the test: only the projector's own second look finds them.
    await expect.poll(() => total('h'), { timeout: 3000, interval: 20 }).toBe(11);
    await projector.stop();
  });

  it('projector.catchUp resolves only when everything committed before it is projected, held-back events too', async () => {
    const p = tallyProjection(2);
    const projector = inProcessProjector({ sql: db.sql, store }, [p], { sweepIntervalMs: 60_000 });
    await catchUp({ sql: db.sql, store }, p);
    const { release, slow } = await openSlowAppend('tally-slow-2', 'k');
    await store.append('tally-fast-2', [tally('k', 10)]);
    // The older transaction commits while catchUp is already running: one pass would miss the fast event.
    setTimeout(release, 200);
    const results = await projector.catchUp('tally');
    await slow;
    expect(results.get('tally')).toMatchObject({ kind: 'caught_up', waiting: false });
    expect(await total('k')).toBeGreaterThanOrEqual(10);
  });

  it('keeps a read model current in-process: an append wakes the projection', async () => {
    const p = tallyProjection(2);
    const projector = inProcessProjector({ sql: db.sql, store }, [p], { sweepIntervalMs: 60_000 });
    store.onAppended((events) => projector.wake(events));
    await projector.start();
    await store.append('tally-g', [tally('g', 9)]);
    await expect.poll(() => total('g'), { timeout: 5000, interval: 20 }).toBe(9);
    await projector.stop();
  });
});
