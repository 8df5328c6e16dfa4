// Run as a child process by driverPatch.int.spec.ts: the reproduction of porsager/postgres #1208 (its begin()
// variant). A transaction's backend is terminated while a query is in flight; postgres.js then writes its own
// ROLLBACK to the closed connection from a setImmediate callback. Unpatched 3.4.9 throws
// "Cannot read properties of null (reading 'write')" there and the process dies; patched, the transaction
// rejects with CONNECTION_CLOSED and the process goes on.
import postgres from 'postgres';

// begin() races its scope against a promise the connection's close rejects; when the close comes after the
// scope settled, that rejection can surface unhandled (4 of 30 runs, patched or not). Our code never uses
// begin() (inTransaction reserves instead); the crash this reproduction is about is the uncaught TypeError.
process.on('unhandledRejection', (error) => {
  if (error?.code !== 'CONNECTION_CLOSED') throw error;
});

const url = process.argv[2];
const sql = postgres(url, { max: 2, onnotice: () => {} });
const killer = postgres(url, { max: 1, onnotice: () => {} });
let pid = null;
const tx = sql.begin(async (t) => {
  const [row] = await t`select pg_backend_pid() as pid`;
  pid = row.pid;
  await t`select pg_sleep(5)`;
});
while (pid === null) await new Promise((resolve) => setTimeout(resolve, 20));
await killer`select pg_terminate_backend(${pid})`;
const outcome = await tx.then(
  () => 'committed',
  (error) => error.code,
);
// The crash, when it comes, comes from a setImmediate callback after the rejection: give it time.
await new Promise((resolve) => setTimeout(resolve, 300));
const [after] = await sql`select 1 as ok`;
process.stdout.write(`${JSON.stringify({ outcome, after: after.ok })}\n`);
await Promise.all([sql.end({ timeout: 2 }), killer.end({ timeout: 2 })]);
