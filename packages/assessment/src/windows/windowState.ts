import type { AnySql } from '@qiraa/db';
import { defaultCalendar, SCREENING_WINDOWS, type ScreeningWindow, type WindowDates, windowOn } from './calendar';

/** How a window came to be open: its calendar dates, or an administrator who opened it before them. */
export type OpenTrigger = 'calendar' | 'manual';

export interface WindowStatus extends WindowDates {
  readonly open: boolean;
  readonly openTrigger: OpenTrigger | null;
  /** Closed early by an administrator (it stays closed until reopened). */
  readonly closedEarly: boolean;
  /** The administrator's latest manual opening and early close (ISO instants), null when none. */
  readonly openedAt: string | null;
  readonly closedAt: string | null;
}

export interface WindowCalendarState {
  readonly organizationId: string;
  readonly academicYear: string;
  readonly timeZone: string;
  /** The organization's calendar day of `at`. */
  readonly today: string;
  /** `stored` when an administrator set the calendar, `default` otherwise. */
  readonly source: 'stored' | 'default';
  readonly windows: readonly WindowStatus[];
  /** The open window, or null between windows (at most one is open). */
  readonly openWindow: ScreeningWindow | null;
}

/** The calendar day of `at` in `timeZone` (`YYYY-MM-DD`). */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/**
 * The screening windows of an organization's academic year at the instant `at`: the stored calendar (or the
 * default one), each window's dates, and which is open. A window is open on its calendar days unless an
 * administrator closed it early, or from an administrator's manual opening until it is closed or its
 * calendar end has passed.
 */
export async function windowCalendarState(
  sql: AnySql,
  organizationId: string,
  academicYear: string,
  at: Date = new Date(),
): Promise<WindowCalendarState> {
  const [org] = await sql<{ time_zone: string }[]>`select time_zone from organizations where id = ${organizationId}`;
  const timeZone = org?.time_zone ?? 'Asia/Amman';
  const [stored, overrides] = await Promise.all([
    sql<{ evidence_window: ScreeningWindow; starts_on: string; ends_on: string }[]>`
      select evidence_window, starts_on::text, ends_on::text from asm_window_calendars
      where organization_id = ${organizationId} and academic_year = ${academicYear}`,
    sql<{ evidence_window: ScreeningWindow; opened_at: Date | null; closed_at: Date | null }[]>`
      select evidence_window, opened_at, closed_at from asm_window_overrides
      where organization_id = ${organizationId} and academic_year = ${academicYear}`,
  ]);
  const dates: WindowDates[] =
    stored.length === SCREENING_WINDOWS.length
      ? SCREENING_WINDOWS.map((w) => {
          const row = stored.find((s) => s.evidence_window === w)!;
          return { window: w, startsOn: row.starts_on, endsOn: row.ends_on };
        })
      : defaultCalendar(academicYear);
  const today = dayIn(at, timeZone);
  const byCalendar = windowOn(dates, today);
  const windows = dates.map((d): WindowStatus => {
    const o = overrides.find((x) => x.evidence_window === d.window);
    const closedEarly = !!o?.closed_at && o.closed_at <= at;
    const manual = !!o?.opened_at && o.opened_at <= at && !closedEarly && today <= d.endsOn;
    const calendar = byCalendar === d.window && !closedEarly;
    const open = calendar || manual;
    return {
      ...d,
      open,
      openTrigger: calendar ? 'calendar' : manual ? 'manual' : null,
      closedEarly,
      openedAt: o?.opened_at?.toISOString() ?? null,
      closedAt: o?.closed_at?.toISOString() ?? null,
    };
  });
  return {
    organizationId,
    academicYear,
    timeZone,
    today,
    source: stored.length === SCREENING_WINDOWS.length ? 'stored' : 'default',
    windows,
    openWindow: windows.find((w) => w.open)?.window ?? null,
  };
}
