import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from './connect';
import { createTestDatabase, type TestDatabase } from './testing';
import { commitAfter, inTransaction } from './unitOfWork';
import { WireCounter } from './wireCounter';

/**
 * `UnitOfWork.commitAfter` sends COMMIT behind the work's last statements (one round trip less), and the
 * wire counter that shows it: counted on a real server, not a mock.
 */
describe('commitAfter and the wire counter', () => {
  let db: TestDatabase;
  let sql: Sql;
  const wire = new WireCounter();
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 2, wire });
    await sql`create table commit_after_probe (id int primary key, note text not null)`;
  });
  afterAll(async () => {
    await sql.end({ timeout: 5 });
    await db.drop();
  });

  const count = async (id: number) =>
    (await db.sql<{ n: number }[]>`select count(*)::int as n from commit_after_probe where id = ${id}`)[0]!.n;

  it('commits the statements sent with COMMIT, in one round trip after the first', async () => {
    // Warm the statements on the pool's connections (a first use is prepared in a round trip of its own).
    for (let i = 0; i < 4; i++) {
      await inTransaction(sql, (uow) => commitAfter(uow, uow.sql`select ${i}::int as n`));
    }
    const before = wire.snapshot();
    const n = await inTransaction(sql, async (uow) => {
      const [row] = await uow.sql<{ n: number }[]>`select count(*)::int as n from commit_after_probe`;
      await commitAfter(
        uow,
        Promise.all([
          uow.sql`insert into commit_after_probe values (1, 'one')`,
          uow.sql`insert into commit_after_probe values (2, 'two')`,
        ]),
      );
      return row!.n;
    });
    const spent = wire.since(before);
    expect(n).toBe(0);
    expect(await count(1)).toBe(1);
    expect(await count(2)).toBe(1);
    // BEGIN with the read, then both inserts with COMMIT: two round trips, five statements.
    expect(spent.roundTrips).toBe(2);
    expect(spent.statements).toBe(5);
  });

  it('a failing statement sent with COMMIT rolls the whole transaction back and throws its error', async () => {
    const failed = inTransaction(sql, (uow) =>
      commitAfter(
        uow,
        Promise.all([
          uow.sql`insert into commit_after_probe values (3, 'three')`,
          uow.sql`insert into commit_after_probe values (4, null)`,
        ]),
      ),
    );
    await expect(failed).rejects.toMatchObject({ code: '23502' });
    expect(await count(3)).toBe(0);
    expect(await count(4)).toBe(0);
  });

  it('without inTransaction (a unit of work of a runner) commitAfter just awaits', async () => {
    const uow = { sql: sql as never, afterCommit: () => {} };
    expect(await commitAfter(uow, Promise.resolve(7))).toBe(7);
  });

  it('es_require_appended (migration 0046) aborts the transaction when the events are not its own', async () => {
    const id = '00000000-0000-4000-8000-000000000046';
    const failed = inTransaction(sql, (uow) =>
      commitAfter(
        uow,
        Promise.all([
          uow.sql`select es_require_appended(${uow.sql.array([id], 1009)}::uuid[])`,
          uow.sql`insert into commit_after_probe values (5, 'five')`,
        ]),
      ),
    );
    await expect(failed).rejects.toMatchObject({ code: 'P0004' });
    expect(await count(5)).toBe(0);
  });
});
