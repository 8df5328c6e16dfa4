import type { PageCell } from '../events';

export const CELL_STATUSES = [
  'done',
  'in_progress',
  'not_started',
  'stopped',
  'restarted_pending',
  'unavailable',
] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];

/** The latest attempt of one student in one cell of the window, and how many of that cell's attempts were voided. */
export interface LatestAttempt {
  attemptId: string;
  status: 'in_progress' | 'done' | 'stopped';
  startedAt: Date;
  endedAt: Date | null;
  voidedAt: Date | null;
  result: Record<string, unknown> | null;
  restarts: number;
}

export interface PageCellView {
  status: CellStatus;
  attemptId: string | null;
  /** done/stopped: when it ended; in_progress: when it started; restarted_pending: when it was voided. */
  at: string | null;
  result: Record<string, unknown> | null;
  restarts: number;
}

/**
 * A student's cell: the latest attempt decides. Voided and not replaced yet: `restarted_pending` (a void
 * removes the attempt from reads, so neither its id nor its result shows). No attempt: `not_started`, or
 * `unavailable` when the blueprint does not put the cell's measure in this grade and window. An attempt in
 * a cell the blueprint no longer lists still shows: evidence is never hidden by a blueprint change.
 */
export function cellView(latest: LatestAttempt | undefined, available: boolean): PageCellView {
  if (!latest)
    return { status: available ? 'not_started' : 'unavailable', attemptId: null, at: null, result: null, restarts: 0 };
  const { restarts } = latest;
  if (latest.voidedAt)
    return { status: 'restarted_pending', attemptId: null, at: latest.voidedAt.toISOString(), result: null, restarts };
  const at = (latest.status === 'in_progress' ? latest.startedAt : (latest.endedAt ?? latest.startedAt)).toISOString();
  return {
    status: latest.status,
    attemptId: latest.attemptId,
    at,
    result: latest.status === 'in_progress' ? null : latest.result,
    restarts,
  };
}

export type StudentCells = Record<PageCell, PageCellView>;
