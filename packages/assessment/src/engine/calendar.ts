/**
 * Screening windows of one organization and academic year, as calendar days (`YYYY-MM-DD`) in the
 * organization's time zone. Pure: the caller turns "now" into the organization's day.
 */

export const SCREENING_WINDOWS = ['BOY', 'MOY', 'EOY'] as const;
export type ScreeningWindow = (typeof SCREENING_WINDOWS)[number];

export interface WindowDates {
  readonly window: ScreeningWindow;
  readonly startsOn: string;
  readonly endsOn: string;
}

export type CalendarProblem =
  | { readonly code: 'window_missing'; readonly window: ScreeningWindow }
  | { readonly code: 'window_repeated'; readonly window: ScreeningWindow }
  | { readonly code: 'ends_before_start'; readonly window: ScreeningWindow }
  | { readonly code: 'outside_academic_year'; readonly window: ScreeningWindow }
  | { readonly code: 'windows_overlap_or_out_of_order'; readonly window: ScreeningWindow };

/** `2026-2027` → [2026, 2027]; the caller has validated the `YYYY-YYYY` pattern and the consecutive years. */
function years(academicYear: string): [number, number] {
  const [first, second] = academicYear.split('-').map(Number);
  return [first!, second!];
}

/**
 * The calendar an organization has until an administrator sets its own: early autumn, midwinter after
 * the first term, and late spring, the usual screening seasons (about 30 school days each).
 */
export function defaultCalendar(academicYear: string): WindowDates[] {
  const [y1, y2] = years(academicYear);
  return [
    { window: 'BOY', startsOn: `${y1}-09-01`, endsOn: `${y1}-10-15` },
    { window: 'MOY', startsOn: `${y2}-01-04`, endsOn: `${y2}-02-12` },
    { window: 'EOY', startsOn: `${y2}-04-19`, endsOn: `${y2}-05-31` },
  ];
}

/** Every problem of a proposed calendar: all three windows, each in order, inside August to July. */
export function checkCalendar(academicYear: string, dates: readonly WindowDates[]): CalendarProblem[] {
  const [y1, y2] = years(academicYear);
  const problems: CalendarProblem[] = [];
  let previousEnd = '';
  for (const window of SCREENING_WINDOWS) {
    const rows = dates.filter((d) => d.window === window);
    const row = rows[0];
    if (rows.length > 1) problems.push({ code: 'window_repeated', window });
    if (!row) {
      problems.push({ code: 'window_missing', window });
      continue;
    }
    if (row.endsOn < row.startsOn) problems.push({ code: 'ends_before_start', window });
    if (row.startsOn < `${y1}-08-01` || row.endsOn > `${y2}-07-31`)
      problems.push({ code: 'outside_academic_year', window });
    if (previousEnd && row.startsOn <= previousEnd) problems.push({ code: 'windows_overlap_or_out_of_order', window });
    previousEnd = [row.startsOn, row.endsOn].sort()[1]!;
  }
  return problems;
}

/** The window whose dates hold `day`, or null between windows. */
export function windowOn(dates: readonly WindowDates[], day: string): ScreeningWindow | null {
  return dates.find((d) => d.startsOn <= day && day <= d.endsOn)?.window ?? null;
}

/**
 * The window a page shows when none is asked for: the open one, else the last one that has started
 * (its results are still being read), else BOY (the year has not begun).
 */
export function defaultWindowOn(dates: readonly WindowDates[], day: string): ScreeningWindow {
  const open = windowOn(dates, day);
  if (open) return open;
  const started = dates.filter((d) => d.startsOn <= day).sort((a, b) => a.startsOn.localeCompare(b.startsOn));
  return started[started.length - 1]?.window ?? 'BOY';
}
