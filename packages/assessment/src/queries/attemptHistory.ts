import type { AnySql } from '@qiraa/db';
import type { ScreeningWindow } from '../engine/calendar';
import type { AttemptKind, AttemptResultSummary, PageCell, StopReason, VoidReason } from '../events';

/** One attempt of any kind as `asm_attempts` holds it: the reports' history and detail read this. */
export interface AttemptHistoryRow {
  attemptId: string;
  kind: AttemptKind;
  cell: PageCell;
  organizationId: string;
  classId: string;
  studentId: number;
  grade: number;
  academicYear: string;
  window: ScreeningWindow;
  status: 'in_progress' | 'done' | 'stopped';
  startedAt: string;
  /** `started_at` in whole microseconds since the epoch (its full precision, as digits): a page's keyset. */
  startedAtKey: string;
  endedAt: string | null;
  endReason: 'completed' | StopReason | null;
  /** What the ending command stored (the teacher page's summary), null until the attempt ends. */
  result: AttemptResultSummary | null;
  voided: { voidId: number; reason: VoidReason; at: string } | null;
}

export interface AttemptHistoryQuery {
  studentId: number;
  academicYear?: string;
  window?: ScreeningWindow;
  kind?: AttemptKind;
  /** Voided attempts are out of every read unless asked for (the audit trail). */
  includeVoided: boolean;
  /** The last row of the previous page: rows strictly older (ties broken by id). */
  after: { startedAtKey: string; attemptId: string } | null;
  limit: number;
}

interface Row {
  attempt_id: string;
  kind: AttemptKind;
  cell: PageCell;
  organization_id: string;
  class_id: string;
  student_id: string;
  grade: number;
  academic_year: string;
  evidence_window: ScreeningWindow;
  status: AttemptHistoryRow['status'];
  started_at: Date;
  started_key: string;
  ended_at: Date | null;
  end_reason: AttemptHistoryRow['endReason'];
  result: AttemptResultSummary | null;
  void_id: string | null;
  void_reason: VoidReason | null;
  voided_at: Date | null;
}

const columns = (sql: AnySql) => sql`
  attempt_id, kind, cell, organization_id, class_id, student_id, grade, academic_year, evidence_window, status,
  started_at, (extract(epoch from started_at) * 1000000)::bigint::text as started_key, ended_at, end_reason,
  result, void_id, void_reason, voided_at`;

const rowOf = (r: Row): AttemptHistoryRow => ({
  attemptId: r.attempt_id,
  kind: r.kind,
  cell: r.cell,
  organizationId: r.organization_id,
  classId: r.class_id,
  studentId: Number(r.student_id),
  grade: r.grade,
  academicYear: r.academic_year,
  window: r.evidence_window,
  status: r.status,
  startedAt: r.started_at.toISOString(),
  startedAtKey: r.started_key,
  endedAt: r.ended_at?.toISOString() ?? null,
  endReason: r.end_reason,
  result: r.result,
  voided:
    r.void_id === null
      ? null
      : { voidId: Number(r.void_id), reason: r.void_reason as VoidReason, at: r.voided_at!.toISOString() },
});

/**
 * A student's attempts of every kind, newest first (id breaks ties), one page of `limit` plus whether more
 * follow. Reads the `asm_attempts` read model only.
 */
export async function attemptHistoryOf(
  sql: AnySql,
  q: AttemptHistoryQuery,
): Promise<{ rows: AttemptHistoryRow[]; more: boolean }> {
  const rows = await sql<Row[]>`
    select ${columns(sql)} from asm_attempts
    where student_id = ${q.studentId}
      ${q.academicYear === undefined ? sql`` : sql`and academic_year = ${q.academicYear}`}
      ${q.window === undefined ? sql`` : sql`and evidence_window = ${q.window}`}
      ${q.kind === undefined ? sql`` : sql`and kind = ${q.kind}`}
      ${q.includeVoided ? sql`` : sql`and void_id is null`}
      ${
        q.after
          ? sql`and (started_at, attempt_id) <
                (timestamptz 'epoch' + ${q.after.startedAtKey}::bigint * interval '1 microsecond',
                 ${q.after.attemptId}::uuid)`
          : sql``
      }
    order by started_at desc, attempt_id desc
    limit ${q.limit + 1}`;
  return { rows: rows.slice(0, q.limit).map(rowOf), more: rows.length > q.limit };
}

/** One attempt by id, or null. */
export async function attemptOf(sql: AnySql, attemptId: string): Promise<AttemptHistoryRow | null> {
  const [row] = await sql<Row[]>`select ${columns(sql)} from asm_attempts where attempt_id = ${attemptId}`;
  return row ? rowOf(row) : null;
}
