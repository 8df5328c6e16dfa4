import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { ScreeningWindow } from '../engine/calendar';
import { stopOpenSitting } from './stopOpenSitting';

export interface WindowEnd {
  organizationId: string;
  academicYear: string;
  window: ScreeningWindow;
  /** When the window ended: the stop events carry it. */
  at: Date;
}

export interface WindowEndEffects {
  /** Digital sittings this call ended with `SittingStopped { reason: 'window_closed' }`. */
  stoppedSittings: number;
}

/**
 * What must end when a screening window closes (an administrator's early close, a calendar change that
 * ends an open window; later also the calendar's last day passing): every open digital sitting of that
 * organization, academic year and window gets `SittingStopped { reason: 'window_closed' }`, each in its own
 * short transaction at the stream version it was read at. Open oral readings are left to the teacher who is
 * reading with the child (docs/assessment-page.md, "Closing a window"). Idempotent: a sitting already ended
 * is skipped, so a repeated close repairs an interrupted one. Training days will end here too.
 *
 * The caller commits the close before calling this, so no sitting can start in the window meanwhile.
 */
export async function endWithWindow(deps: { sql: Sql; store: EventStore }, end: WindowEnd): Promise<WindowEndEffects> {
  const open = await deps.sql<{ attempt_id: string }[]>`
    select attempt_id from asm_attempts
    where organization_id = ${end.organizationId} and academic_year = ${end.academicYear}
      and evidence_window = ${end.window} and kind = 'digital_sitting' and status = 'in_progress'
      and void_id is null
    order by started_at`;
  let stoppedSittings = 0;
  for (const { attempt_id } of open) {
    if (await stopOpenSitting(deps, attempt_id, 'window_closed', end.at)) stoppedSittings++;
  }
  return { stoppedSittings };
}
