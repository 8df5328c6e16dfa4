import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { streams } from '../events';
import { compareLedger, type LedgerDrift } from './compare';
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
  const [mastery, badgeAwards, badgeRescinds] = await Promise.all([
    deps.store.readStream(streams.mastery(studentId)),
    deps.store.readStream(streams.badgeAwards(studentId)),
    deps.store.readStream(streams.badgeRescinds(studentId)),
  ]);
  const holidays = await deps.sql<{ d: string }[]>`
    select h.day::text as d from school_holidays h join users u on u.organization_id = h.organization_id
    where u.id = ${studentId}`;
  const derived = replayStudent({ mastery, badgeAwards, badgeRescinds }, asOf, new Set(holidays.map((h) => h.d))).keys;
  const stored = await storedAsOf(deps.sql, studentId, asOf);
  return { studentId, asOf: asOf.toISOString(), derived, stored, ...compareLedger(derived, stored) };
}
