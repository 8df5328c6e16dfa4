import { defaultCalendar, type WindowDates } from '@qiraa/assessment';

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const earlier = (a: string, b: string) => (a < b ? a : b);
const later = (a: string, b: string) => (a > b ? a : b);

/** BOY stays open at least this long after the seed day, so a demo is not over the day after seeding. */
const OPEN_AHEAD_DAYS = 27;

export type DemoCalendar =
  /** `openBoyByHand`: the year has not begun on `today`; BOY keeps its usual dates and is opened manually. */
  | { kind: 'calendar'; windows: WindowDates[]; openBoyByHand: boolean }
  /** Too late in the year for BOY to hold `today` with MOY and EOY after it. */
  | { kind: 'year_over' };

/**
 * The calendar a demo organization's administrator sets so that BOY is open on `today` (the organization's
 * day), as an operator would: the usual calendar (`defaultCalendar`) with BOY starting on its usual day (or
 * today, in August) and stretched to run until four weeks past today, MOY and EOY on their usual dates when they still come
 * after it, else sharing what is left of the year. Before the academic year begins no BOY can hold today
 * (windows lie inside August to July), so the usual calendar is kept and BOY is opened by hand, which the
 * window rules allow before a window's first day.
 */
export function demoCalendar(academicYear: string, today: string): DemoCalendar {
  const [y1, y2] = academicYear.split('-').map(Number);
  const yearStart = `${y1}-08-01`;
  const yearEnd = `${y2}-07-31`;
  const [boy, moy, eoy] = defaultCalendar(academicYear) as [WindowDates, WindowDates, WindowDates];
  if (today < yearStart) return { kind: 'calendar', windows: [boy, moy, eoy], openBoyByHand: true };
  // MOY and EOY need at least a day each after BOY's last day.
  const lastBoyDay = addDays(yearEnd, -2);
  if (today > lastBoyDay) return { kind: 'year_over' };
  const open: WindowDates = {
    window: 'BOY',
    startsOn: earlier(boy.startsOn, today),
    endsOn: earlier(lastBoyDay, later(boy.endsOn, addDays(today, OPEN_AHEAD_DAYS))),
  };
  if (moy.startsOn > open.endsOn) return { kind: 'calendar', windows: [open, moy, eoy], openBoyByHand: false };
  const left = daysBetween(open.endsOn, yearEnd); // days after BOY, at least 2
  const half = Math.floor(left / 2);
  return {
    kind: 'calendar',
    openBoyByHand: false,
    windows: [
      open,
      { window: 'MOY', startsOn: addDays(open.endsOn, 1), endsOn: addDays(open.endsOn, half) },
      { window: 'EOY', startsOn: addDays(open.endsOn, half + 1), endsOn: yearEnd },
    ],
  };
}
