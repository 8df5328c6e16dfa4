import { inTransaction, type Sql, type TransactionSql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { type CalendarProblem, checkCalendar, type ScreeningWindow, type WindowDates } from '../engine/calendar';
import { type WindowCalendarState, windowCalendarState } from '../queries/windowState';
import { endWithWindow } from './endWithWindow';

type Deps = { sql: Sql; store: EventStore };

/** One administrator's change of one organization's year at a time: open, close and calendar writes queue. */
async function lockYear(tx: TransactionSql, organizationId: string, academicYear: string) {
  await tx`select pg_advisory_xact_lock(hashtext('asm-windows'), hashtext(${`${organizationId}/${academicYear}`}))`;
}

export interface WindowChange {
  organizationId: string;
  academicYear: string;
  actorUserId: number;
  at?: Date;
}

export type SetCalendarResult =
  | { kind: 'set'; state: WindowCalendarState; stoppedSittings: number }
  | { kind: 'refused'; problems: CalendarProblem[] };

/**
 * Stores the three windows' dates of an organization's year (checkCalendar first: nothing is written on a
 * problem). A window that was open and is not any more under the new dates ends as if closed.
 */
export async function setWindowCalendar(
  deps: Deps,
  change: WindowChange & { windows: readonly WindowDates[] },
): Promise<SetCalendarResult> {
  const problems = checkCalendar(change.academicYear, change.windows);
  if (problems.length > 0) return { kind: 'refused', problems };
  const at = change.at ?? new Date();
  const { before, after } = await inTransaction(deps.sql, async ({ sql: tx }) => {
    await lockYear(tx, change.organizationId, change.academicYear);
    const before = await windowCalendarState(tx, change.organizationId, change.academicYear, at);
    const rows = change.windows.map((w) => ({ evidence_window: w.window, starts_on: w.startsOn, ends_on: w.endsOn }));
    await tx`
      insert into asm_window_calendars (organization_id, academic_year, evidence_window, starts_on, ends_on, set_by, set_at)
      select ${change.organizationId}, ${change.academicYear}, r.evidence_window, r.starts_on, r.ends_on, ${change.actorUserId}, ${at}
      from jsonb_to_recordset(${tx.json(rows as never)}) as r(evidence_window text, starts_on date, ends_on date)
      on conflict (organization_id, academic_year, evidence_window) do update
        set starts_on = excluded.starts_on, ends_on = excluded.ends_on, set_by = excluded.set_by, set_at = excluded.set_at`;
    return { before, after: await windowCalendarState(tx, change.organizationId, change.academicYear, at) };
  });
  let stoppedSittings = 0;
  for (const w of before.windows) {
    if (w.open && !after.windows.find((x) => x.window === w.window)?.open) {
      stoppedSittings += (await endWithWindow(deps, { ...change, window: w.window, at })).stoppedSittings;
    }
  }
  return { kind: 'set', state: after, stoppedSittings };
}

export type OpenRefusal = 'already_open' | 'another_window_open' | 'window_ended';
export type OpenResult = { kind: 'opened'; state: WindowCalendarState } | { kind: 'refused'; reason: OpenRefusal };

/** Whether an administrator could open `window` now: not open, no other window open, its last day not past. */
export function openRefusal(state: WindowCalendarState, window: ScreeningWindow): OpenRefusal | null {
  const w = state.windows.find((x) => x.window === window)!;
  if (w.open) return 'already_open';
  if (state.openWindow !== null) return 'another_window_open';
  if (state.today > w.endsOn) return 'window_ended';
  return null;
}

/**
 * Opens a window by hand: before its first calendar day, or again after an early close. It stays open
 * until closed or until its calendar end has passed (windowState.ts).
 */
export async function openWindow(deps: Deps, change: WindowChange & { window: ScreeningWindow }): Promise<OpenResult> {
  const at = change.at ?? new Date();
  return inTransaction(deps.sql, async ({ sql: tx }) => {
    await lockYear(tx, change.organizationId, change.academicYear);
    const state = await windowCalendarState(tx, change.organizationId, change.academicYear, at);
    const reason = openRefusal(state, change.window);
    if (reason) return { kind: 'refused', reason } as const;
    await tx`
      insert into asm_window_overrides (organization_id, academic_year, evidence_window, opened_at, opened_by)
      values (${change.organizationId}, ${change.academicYear}, ${change.window}, ${at}, ${change.actorUserId})
      on conflict (organization_id, academic_year, evidence_window) do update
        set opened_at = excluded.opened_at, opened_by = excluded.opened_by, closed_at = null, closed_by = null`;
    return {
      kind: 'opened',
      state: await windowCalendarState(tx, change.organizationId, change.academicYear, at),
    } as const;
  });
}

export type CloseResult =
  | { kind: 'closed'; state: WindowCalendarState; stoppedSittings: number }
  | { kind: 'refused'; reason: 'window_not_open' };

/**
 * Closes a window early, then ends what must end with it (endWithWindow). Closing a window already closed
 * early answers the same again and runs the effects again, so an interrupted close can be repaired; a
 * window that is not open otherwise (before its days, or past them) is refused.
 */
export async function closeWindow(
  deps: Deps,
  change: WindowChange & { window: ScreeningWindow },
): Promise<CloseResult> {
  const at = change.at ?? new Date();
  const closed = await inTransaction(deps.sql, async ({ sql: tx }) => {
    await lockYear(tx, change.organizationId, change.academicYear);
    const state = await windowCalendarState(tx, change.organizationId, change.academicYear, at);
    const w = state.windows.find((x) => x.window === change.window)!;
    if (w.closedEarly) return { state, closedAt: new Date(w.closedAt!) };
    if (!w.open) return null;
    await tx`
      insert into asm_window_overrides (organization_id, academic_year, evidence_window, closed_at, closed_by)
      values (${change.organizationId}, ${change.academicYear}, ${change.window}, ${at}, ${change.actorUserId})
      on conflict (organization_id, academic_year, evidence_window) do update
        set closed_at = excluded.closed_at, closed_by = excluded.closed_by`;
    return { state: await windowCalendarState(tx, change.organizationId, change.academicYear, at), closedAt: at };
  });
  if (!closed) return { kind: 'refused', reason: 'window_not_open' };
  const effects = await endWithWindow(deps, { ...change, at: closed.closedAt });
  return { kind: 'closed', state: closed.state, stoppedSittings: effects.stoppedSittings };
}
