import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { userOrganization } from '@qiraa/identity';
import { compareLedger, type LedgerDrift } from './compare';
import { readStudentStreams } from './readStudentStreams';
import { type LedgerKeys, replayStudent } from './replayStudent';
import { storedAsOf } from './storedAsOf';

export interface ReplayReport {
  studentId: number;
  asOf: string;
  derived: LedgerKeys;
  stored: LedgerKeys;
  drift: LedgerDrift;
  hasDrift: boolean;
}

/**
 * One student's replay: fold the raw streams up to `asOf` with the pinned rule versions, read the read
 * models as of the same instant, compare. Used by POST /api/admin/gamification/replay and
 * `qiraa gamification replay`.
 */
export async function replayReport(
  deps: { sql: Sql; store: EventStore },
  studentId: number,
  asOf: Date,
): Promise<ReplayReport> {
  // Three statements in parallel: the streams, the holidays, the read models as of the same instant.
  const [studentStreams, holidays, stored] = await Promise.all([
    readStudentStreams(deps.store, studentId),
    // The holidays of the student's organization (identity says which).
    userOrganization(deps.sql, studentId).then(
      (organizationId) => deps.sql<{ d: string }[]>`
        select h.day::text as d from school_holidays h where h.organization_id = ${organizationId}`,
    ),
    storedAsOf(deps.sql, studentId, asOf),
  ]);
  const derived = replayStudent(studentStreams, asOf, new Set(holidays.map((h) => h.d))).keys;
  return { studentId, asOf: asOf.toISOString(), derived, stored, ...compareLedger(derived, stored) };
}
