import type { AnySql } from '@qiraa/db';
import type { StopReason } from '../events';
import type { DigitalSittingStarted, SittingAnswerRecorded, SittingFold } from './sittingTypes';

interface SittingRow {
  attempt_id: string;
  started: DigitalSittingStarted;
  answers: Record<string, SittingAnswerRecorded>;
  status: SittingFold['status'];
  end_reason: 'completed' | StopReason | null;
  ended_at: Date | null;
  void_id: string | null;
}

/** A sitting from its read model (`asm_sittings`), or null when there is none with this id. */
export async function readSitting(sql: AnySql, attemptId: string): Promise<SittingFold | null> {
  const [row] = await sql<SittingRow[]>`
    select attempt_id, started, answers, status, end_reason, ended_at, void_id::text
    from asm_sittings where attempt_id = ${attemptId}`;
  return row ? foldOf(row) : null;
}

/** Several sittings in one query (a page of a report); ids without a sitting are left out. */
export async function readSittings(sql: AnySql, attemptIds: readonly string[]): Promise<SittingFold[]> {
  if (attemptIds.length === 0) return [];
  const rows = await sql<SittingRow[]>`
    select attempt_id, started, answers, status, end_reason, ended_at, void_id::text
    from asm_sittings where attempt_id = any(${sql.array([...attemptIds])}::uuid[])`;
  return rows.map(foldOf);
}

function foldOf(row: SittingRow): SittingFold {
  return {
    attemptId: row.attempt_id,
    started: row.started,
    answers: new Map(Object.entries(row.answers).map(([p, a]) => [Number(p), a])),
    status: row.status,
    endReason: row.end_reason,
    endedAt: row.ended_at?.toISOString() ?? null,
    voided: row.void_id !== null,
    // The read model does not track stream versions; commands read the stream.
    streamVersion: 0n,
  };
}
