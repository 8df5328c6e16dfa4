import type { Sql } from '../connect';

export interface OlderTransaction {
  /** Commits it and closes its connection. */
  end(): Promise<void>;
}

/**
 * A transaction on a connection of its own (`sql`, e.g. `TestDatabase.connectAgain(1)`) that has taken its
 * transaction id and stays open until `end`: the log's readers hold back every event committed after it
 * (PostgreSQL's xmin horizon), as a long import or a slow batch elsewhere on the server would.
 */
export async function olderTransaction(sql: Sql): Promise<OlderTransaction> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let begun!: () => void;
  const isBegun = new Promise<void>((resolve) => (begun = resolve));
  const finished = sql.begin(async (tx) => {
    await tx`select pg_current_xact_id()`;
    begun();
    await released;
  });
  await Promise.race([isBegun, finished]);
  return {
    async end() {
      release();
      await finished;
      await sql.end();
    },
  };
}
