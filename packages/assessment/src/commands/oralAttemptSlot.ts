import type { AnySql } from '@qiraa/db';
import type { ScreeningWindow } from '../engine/calendar';
import type { PageCell } from '../events';
import { windowCalendarState } from '../queries/windowState';
import type { AttemptPlace } from './attemptPlace';
import { lockAttemptCell, supersededVoidId } from './supersededVoid';

/** The window open at the place on the day an oral attempt starts (null between windows) and that day. */
export interface OpenWindowFact {
  readonly open: ScreeningWindow | null;
  /** The organization's calendar day of the start (named by the `no_open_window` refusal). */
  readonly today: string;
}

export async function openWindowFact(sql: AnySql, place: AttemptPlace, at: Date): Promise<OpenWindowFact> {
  const state = await windowCalendarState(sql, place.organizationId, place.academicYear, at);
  return { open: state.openWindow, today: state.today };
}

/** What a new oral attempt of a child's cell is decided on beside its request: the void it replaces. */
export interface OralAttemptSlot {
  readonly supersedesVoidId: number | null;
}

/**
 * The cell's slot read in the command's transaction: the cell locked first (`lockAttemptCell`), then the void
 * the new attempt replaces. Between windows (or without
 * a cell) there is nothing to lock: the decider refuses.
 */
export async function oralAttemptSlot(
  tx: AnySql,
  place: AttemptPlace,
  studentId: number,
  window: ScreeningWindow | null,
  cell: PageCell | null,
): Promise<OralAttemptSlot> {
  if (!window || !cell) return { supersedesVoidId: null };
  const address = { studentId, academicYear: place.academicYear, window, cell };
  await lockAttemptCell(tx, address);
  return { supersedesVoidId: await supersededVoidId(tx, address) };
}
