import { currentReadCuts, startOralReading, stopOralReading, windowCalendarState } from '@qiraa/assessment';
import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { gradePassage, teacherCaller } from './seedDemoAssessment';

type Deps = { sql: Sql; store: EventStore };

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * Weekly probes, the last one yesterday: the rising child's seven span six weeks (PMR-02 wants at least six
 * over at least 35 days), the dipping child's five span four (one short of a trend: the safe stop, while
 * PMR-03 needs only three earlier probes to judge a drop).
 */
const RISING_PROBES = 7;
const DIPPING_PROBES = 5;
/** 09:00 in Amman (UTC+3): a morning reading, in the past on every day before today. */
const PROBE_TIME = 'T06:00:00Z';

export type MonitoringPlan =
  | { kind: 'probes'; risingDays: string[]; dippingDays: string[] }
  /** BOY (the window the probes are read in) began too recently for six weeks of probes before today. */
  | { kind: 'too_early'; firstDay: string };

/**
 * The days of the probes, in the past and inside the seeded academic year's BOY window (the window open on
 * each of those days: BOY runs from `boyStartsOn` to past `today`, demoWindowCalendar.ts), or why there are
 * none: when BOY began less than six weeks before `today` (early in the year, or before it), a trend could
 * not be decided without dating probes outside the window or in the future.
 */
export function monitoringPlan(boyStartsOn: string, today: string): MonitoringPlan {
  const risingDays = Array.from({ length: RISING_PROBES }, (_, k) => addDays(today, -1 - 7 * (RISING_PROBES - 1 - k)));
  if (risingDays[0]! < boyStartsOn) return { kind: 'too_early', firstDay: risingDays[0]! };
  return { kind: 'probes', risingDays, dippingDays: risingDays.slice(-DIPPING_PROBES) };
}

export interface MonitoringChild {
  studentId: number;
  /** As the seed prints it. */
  firstName: string;
  classId: string;
  grade: number;
  teacherId: number;
}

export interface DemoMonitoringInput {
  organizationId: string;
  academicYear: string;
  /** Reads clearly faster than the goal line asks: a trend above it (PMR-02, MER-05). */
  rising: MonitoringChild;
  /** Climbs for four weeks, then reads far below her trend: an acute regression (PMR-03). */
  dipping: MonitoringChild;
}

export type DemoMonitoringSummary =
  | {
      kind: 'probes';
      rising: { firstName: string; wcpm: number[] };
      dipping: { firstName: string; wcpm: number[] };
      firstDay: string;
      lastDay: string;
    }
  | { kind: 'too_early'; firstDay: string };

/** Words correct per minute of the dipping child, week by week: a steady climb, then a collapse (22 below trend). */
const DIPPING_WCPM = [30, 32, 33, 35, 14];
const RISING_BASELINE = 24;
/** How much faster than the goal line the rising child grows, WCPM a week (PMR-02's tolerance is 0.5). */
const RISING_MARGIN = 2.5;

/**
 * PMR-01's weekly gain for a baseline read on `baselineDay` (docs/decisions-monitoring.md): from the baseline
 * to the EOY benchmark (the `on_track` rate cut of the grade's EOY cut table) on the first day of EOY, never
 * below half a word a week. The seed grows the rising child faster than this, whatever the seed day.
 */
async function goalGain(sql: Sql, organizationId: string, grade: number, baselineDay: string, eoyStartsOn: string) {
  const eoy = await currentReadCuts(sql, organizationId, { cell: 'oral_text', grade, window: 'EOY' });
  const goal = eoy?.rate.find((c) => c.band === 'on_track')?.min;
  if (goal === undefined) throw new Error(`no EOY oral-reading benchmark for grade ${grade}`);
  const weeks = (Date.parse(`${eoyStartsOn}T00:00:00Z`) - Date.parse(`${baselineDay}${PROBE_TIME}`)) / WEEK_MS;
  return Math.max(0.5, (goal - RISING_BASELINE) / weeks);
}

/**
 * One probe: the class teacher's one-minute oral reading of the grade's passage, started and stopped through
 * the assessment context's commands with the probe's past time as their clock (so the window, the cut table and
 * the bands are the commands' own). `wcpm` words correct in the minute, no error; a child who reads faster
 * than the passage is long finishes it early (the WCPM is counted over the seconds actually read).
 */
async function probe(deps: Deps, organizationId: string, child: MonitoringChild, day: string, wcpm: number) {
  const now = new Date(`${day}${PROBE_TIME}`);
  const teacher = teacherCaller(child.teacherId, organizationId);
  const passage = await gradePassage(deps.sql, child.grade);
  const reading = await startOralReading(deps, teacher, { studentId: child.studentId, passageId: passage.id }, { now });
  const words = reading.started.wordCount;
  const stop =
    wcpm <= words
      ? { lastWordIndex: wcpm - 1, elapsedSeconds: 60 }
      : { lastWordIndex: words - 1, elapsedSeconds: Math.max(1, Math.round((60 * words) / wcpm)) };
  await stopOralReading(deps, teacher, reading.started.attemptId, stop, { now: new Date(now.getTime() + 60_000) });
}

/**
 * Progress monitoring for the demo (docs/decisions-monitoring.md): weekly oral-reading probes of two children
 * over the past weeks of BOY, so the decisions recompute that follows (seedDemoDecisions.ts) decides one trend
 * above the goal line (`cbm_trend_above_goal` XP) and raises one acute_regression alert for the class teacher.
 * Nothing is decided here.
 */
export async function seedDemoMonitoring(deps: Deps, input: DemoMonitoringInput): Promise<DemoMonitoringSummary> {
  const calendar = await windowCalendarState(deps.sql, input.organizationId, input.academicYear);
  const boy = calendar.windows.find((w) => w.window === 'BOY')!;
  const eoy = calendar.windows.find((w) => w.window === 'EOY')!;
  const plan = monitoringPlan(boy.startsOn, calendar.today);
  if (plan.kind === 'too_early') return plan;

  const gain = await goalGain(deps.sql, input.organizationId, input.rising.grade, plan.risingDays[0]!, eoy.startsOn);
  const rising = plan.risingDays.map((_, k) => RISING_BASELINE + Math.round((gain + RISING_MARGIN) * k));
  for (const [k, day] of plan.risingDays.entries()) {
    await probe(deps, input.organizationId, input.rising, day, rising[k]!);
  }
  for (const [k, day] of plan.dippingDays.entries()) {
    await probe(deps, input.organizationId, input.dipping, day, DIPPING_WCPM[k]!);
  }
  return {
    kind: 'probes',
    rising: { firstName: input.rising.firstName, wcpm: rising },
    dipping: { firstName: input.dipping.firstName, wcpm: DIPPING_WCPM },
    firstDay: plan.risingDays[0]!,
    lastDay: plan.risingDays.at(-1)!,
  };
}
