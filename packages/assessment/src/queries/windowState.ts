import type { AnySql } from '@qiraa/db';
import { organizationTimeZoneQuery } from '@qiraa/identity';
import type postgres from 'postgres';
import {
  defaultCalendar,
  SCREENING_WINDOWS,
  type ScreeningWindow,
  type WindowDates,
  windowOn,
} from '../engine/calendar';

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

// A formatter per time zone: building one costs more than the rest of a window check (it ran per answer).
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of `at` in `timeZone` (`YYYY-MM-DD`). */
export function dayIn(at: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** What the window state is computed from: the organization's time zone, its stored calendar and overrides. */
export interface WindowFacts {
  /** null when the organization has none stored (the default zone applies). */
  readonly timeZone: string | null;
  readonly stored: readonly { evidence_window: ScreeningWindow; starts_on: string; ends_on: string }[];
  readonly overrides: readonly { evidence_window: ScreeningWindow; opened_at: Date | null; closed_at: Date | null }[];
}

/** The columns `windowFactsColumns` adds to a select, as they come back. */
export interface WindowFactsRow {
  wf_time_zone: string | null;
  wf_stored: WindowFacts['stored'];
  wf_overrides: { evidence_window: ScreeningWindow; opened_at: string | null; closed_at: string | null }[];
}

/**
 * Three select-list columns (`wf_*`) with the window facts of the organization and academic year the two SQL
 * expressions name, so a caller reads them in the statement it already sends (the answer command reads them
 * with the sitting). Read back with `windowFactsOf`.
 */
export const windowFactsColumns = (
  sql: AnySql,
  organizationId: postgres.Fragment,
  academicYear: postgres.Fragment,
) => sql`
  (${organizationTimeZoneQuery(sql, organizationId)}) as wf_time_zone,
  (select coalesce(json_agg(json_build_object('evidence_window', evidence_window, 'starts_on', starts_on::text,
                                              'ends_on', ends_on::text)), '[]')
   from asm_window_calendars where organization_id = ${organizationId} and academic_year = ${academicYear})
    as wf_stored,
  (select coalesce(json_agg(json_build_object('evidence_window', evidence_window, 'opened_at', opened_at,
                                              'closed_at', closed_at)), '[]')
   from asm_window_overrides where organization_id = ${organizationId} and academic_year = ${academicYear})
    as wf_overrides`;

export const windowFactsOf = (row: WindowFactsRow): WindowFacts => ({
  timeZone: row.wf_time_zone,
  stored: row.wf_stored,
  overrides: row.wf_overrides.map((o) => ({
    evidence_window: o.evidence_window,
    opened_at: o.opened_at === null ? null : new Date(o.opened_at),
    closed_at: o.closed_at === null ? null : new Date(o.closed_at),
  })),
});

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
  const [row] = await sql<WindowFactsRow[]>`
    select ${windowFactsColumns(sql, sql`${organizationId}`, sql`${academicYear}`)}`;
  return windowStateOf(windowFactsOf(row!), organizationId, academicYear, at);
}

/** `windowCalendarState` from facts read elsewhere (the answer command reads them with the sitting). Pure. */
export function windowStateOf(
  facts: WindowFacts,
  organizationId: string,
  academicYear: string,
  at: Date,
): WindowCalendarState {
  const { stored, overrides } = facts;
  const timeZone = facts.timeZone ?? 'Asia/Amman';
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
