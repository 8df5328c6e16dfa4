import type { AnySql } from '@qiraa/db';
import type { StopReason } from '../events';
import type { DigitalSittingStarted, SittingAnswerRecorded, SittingFold } from '../events/sittingTypes';

/** The `asm_sittings` columns `sittingOfRow` reads, for a select on the table aliased `s`. */
export const sittingColumns = (sql: AnySql) =>
  sql`s.attempt_id, s.organization_id, s.started, s.answers, s.status, s.end_reason, s.ended_at,
      s.void_id::text as void_id, s.stream_version`;

export interface SittingRow {
  attempt_id: string;
  organization_id: string;
  started: DigitalSittingStarted;
  answers: Record<string, SittingAnswerRecorded>;
  status: SittingFold['status'];
  end_reason: 'completed' | StopReason | null;
  ended_at: Date | null;
  void_id: string | null;
  stream_version: bigint | null;
}

/** A sitting as its read model row has it: the stream version it reflects may be unknown (null). */
export type RowFold = Omit<SittingFold, 'streamVersion'> & { streamVersion: bigint | null };

/**
 * A sitting from its read model row. `streamVersion` is the version of the sitting's stream the row reflects
 * (null on rows written before the projection tracked it: a command then folds the stream).
 */
export function sittingOfRow(row: SittingRow): RowFold {
  return {
    attemptId: row.attempt_id,
    started: row.started,
    answers: new Map(Object.entries(row.answers).map(([p, a]) => [Number(p), a])),
    status: row.status,
    endReason: row.end_reason,
    endedAt: row.ended_at?.toISOString() ?? null,
    voided: row.void_id !== null,
    streamVersion: row.stream_version,
  };
}

/** A sitting from its read model (`asm_sittings`), or null when there is none with this id. */
export async function readSitting(sql: AnySql, attemptId: string): Promise<SittingFold | null> {
  const [row] = await sql<SittingRow[]>`
    select ${sittingColumns(sql)} from asm_sittings s where s.attempt_id = ${attemptId}`;
  if (!row) return null;
  const fold = sittingOfRow(row);
  return { ...fold, streamVersion: fold.streamVersion ?? 0n };
}

/** Several sittings in one query (a page of a report); ids without a sitting are left out. */
export async function readSittings(sql: AnySql, attemptIds: readonly string[]): Promise<SittingFold[]> {
  if (attemptIds.length === 0) return [];
  const rows = await sql<SittingRow[]>`
    select ${sittingColumns(sql)} from asm_sittings s
    where s.attempt_id = any(${sql.array([...attemptIds])}::uuid[])`;
  return rows.map((row) => {
    const fold = sittingOfRow(row);
    return { ...fold, streamVersion: fold.streamVersion ?? 0n };
  });
}
