// A child process for the crash test: ingests a range of engine events (re-sending from the start every
// time it is started) and runs the ledger projection's runner between events, until it finishes or is killed.
import { connect } from '@qiraa/db';
import { postgresEventStore } from '@qiraa/eventstore';
import { catchUp } from '@qiraa/projections';
import { MASTERY_EVENT_SOURCE_KINDS } from '../codes';
import { recordMasteryEvent } from '../commands/recordMasteryEvent';
import { gamificationLedgerProjection } from '../projections/ledgerProjection';

const sql = connect(process.env.DATABASE_URL!, { max: 2 });
const store = postgresEventStore(sql);
const students = process.env.STUDENTS!.split(',').map(Number);
const from = Number(process.env.FROM);
const count = Number(process.env.COUNT);

for (let i = from; i < from + count; i++) {
  const studentId = students[i % students.length]!;
  const day = new Date(Date.UTC(2026, 8, 1 + Math.floor(i / 10))).toISOString().slice(0, 10);
  await recordMasteryEvent(
    { sql, store },
    {
      engineEventId: `crash-${i}`,
      studentId,
      sourceKind: MASTERY_EVENT_SOURCE_KINDS[(i * 5) % MASTERY_EVENT_SOURCE_KINDS.length]!,
      schoolDay: day,
      occurredAt: `${day}T08:00:00Z`,
      sessionId: `s-${studentId}-${Math.floor(i / 9)}`,
    },
  );
  if (i % 4 === 0) await catchUp({ sql, store }, gamificationLedgerProjection, 7);
}
await sql.end();
