import type { Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import type { Projector, Reactor } from '@qiraa/projections';
import { currentDay, currentSlot, type Slot, submitResponse } from '@qiraa/training';

type Deps = { sql: Sql; store: EventStore; projector: Projector; reactor: Reactor };
/** The slot being answered, and whether it is the first question of its exercise. */
type AnsweredSlot = Slot & { firstOfExercise: boolean };

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** 10:00 in Amman (UTC+3): a morning practice, on a past school day. */
const PRACTICE_TIME = 'T07:00:00Z';
/** Seconds between answers: above the rapid floor (1.5 s), below the idle gap (60 s). */
const ANSWER_GAP_MS = 5_000;
/** How far back the history reaches: TAL-02 wants 21 days at level 1; a few more keep it clear of the edge. */
const LOOKBACK_DAYS = 28;
/** The training alert reactor and the alert read model, then the notifier, a reaction (packages/training/src/projections and reactions). */
const ALERT_RUNNERS = ['training_alerts_reactor', 'training_alerts'] as const;
const ALERT_NOTIFIER = 'training_alerts_notifier';

/** Sunday to Thursday: Jordan's school week (Friday and Saturday are the weekend). */
const isSchoolDay = (day: string) => ![5, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

export type TrainingPlan =
  | { kind: 'days'; schoolDays: string[] }
  /** The academic year began less than four weeks before today (or has not begun, or is over). */
  | { kind: 'too_early'; firstDay: string };

/**
 * The past school days the history may use: those of the four weeks before `today`, all inside the seeded
 * academic year (1 August to 31 July). When the year began too recently (or not yet) no 21-day stay fits
 * before today: none are seeded and the seed says so.
 */
export function trainingPlan(academicYear: string, today: string): TrainingPlan {
  const [y1, y2] = academicYear.split('-').map(Number);
  const firstDay = addDays(today, -LOOKBACK_DAYS);
  if (firstDay < `${y1}-08-01` || today > `${y2}-07-31`) return { kind: 'too_early', firstDay };
  const schoolDays = Array.from({ length: LOOKBACK_DAYS }, (_, k) => addDays(firstDay, k)).filter(isSchoolDay);
  return { kind: 'days', schoolDays };
}

/** How each demo child answers (as in packages/training's class simulation). */
const PATTERNS = {
  /** Every answer right at the first try: the level moves up on the third day (TLM-01). */
  rising: () => true,
  /** Every answer wrong, both tries: at level 1 nothing moves; three such days raise TAL-01. */
  stalled: () => false,
  /** The first question of each exercise wrong at the first try: 2 of 3 counted answers right, no move ever. */
  steady: (slot: AnsweredSlot) => !(slot.stepKind === 'target' && slot.attempt === 1 && slot.firstOfExercise),
} satisfies Record<string, (slot: AnsweredSlot) => boolean>;

export interface TrainingChild {
  studentId: number;
  firstName: string;
}

export interface DemoTrainingInput {
  academicYear: string;
  /** The organization's school day today (Asia/Amman). */
  today: string;
  /** Practises well on the last four school days. */
  rising: TrainingChild;
  /** Gets everything wrong on the last six school days: `no_progress_at_level`. */
  stalled: TrainingChild;
  /** Practises once a week over four weeks and holds level 1: `support_review_suggested`. */
  steady: TrainingChild;
}

export type DemoTrainingSummary =
  | { kind: 'too_early'; firstDay: string }
  | {
      kind: 'history';
      firstDay: string;
      lastDay: string;
      days: number;
      answers: number;
      levels: number;
      moves: number;
      alerts: Record<string, number>;
      notifications: number;
      names: string;
    };

async function optionKey(sql: Sql, itemId: string, correct: boolean): Promise<string> {
  const [row] = await sql<{ k: string }[]>`
    select o->>'key' as k from content_items, jsonb_array_elements(options) o
    where id = ${itemId} and (o->>'key' = correct_option_key) = ${correct} order by 1 limit 1`;
  return row!.k;
}

/** One whole training day of one child on a past school day, through the queue's commands with a fixed clock. */
async function practiseDay(deps: Deps, studentId: number, day: string, pattern: (s: AnsweredSlot) => boolean) {
  let clock = Date.parse(`${day}${PRACTICE_TIME}`);
  let { fold } = await currentDay(deps, studentId, { open: true, now: new Date(clock) });
  let answers = 0;
  for (let guard = 0; fold && !fold.ended && guard < 80; guard++) {
    const slot = currentSlot(fold);
    if (!slot) break;
    const exercise = slot.exerciseIndex === null ? null : fold.opened.exercises[slot.exerciseIndex];
    const firstOfExercise = slot.stepKind === 'target' && exercise?.itemIds[0] === slot.itemId;
    clock += ANSWER_GAP_MS;
    const right = pattern({ ...slot, firstOfExercise });
    const outcome = await submitResponse(
      deps,
      studentId,
      { itemId: slot.itemId, selectedOptionKey: await optionKey(deps.sql, slot.itemId, right) },
      { now: new Date(clock) },
    );
    fold = outcome.fold;
    answers++;
  }
  return answers;
}

/**
 * A training history in the past: three children of one class practise whole days through the training
 * commands (levels start from their screen seeds, decided just before), then the alert reactor and notifier run
 * as the server's runner would, so the class teacher's inbox holds one alert of each kind.
 */
export async function seedDemoTraining(
  deps: Deps,
  academicYear: string,
  studentIds: ReadonlyMap<string, number>,
): Promise<DemoTrainingSummary> {
  const child = (fullNameAr: string) => ({
    studentId: studentIds.get(fullNameAr)!,
    firstName: fullNameAr.split(' ')[0]!,
  });
  return seedTrainingHistory(deps, {
    academicYear,
    today: new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Amman' }).format(new Date()),
    // Grade 2 (teacher2): three children who sat the screening, so their levels start from screen seeds.
    rising: child('علي الشريف'),
    stalled: child('زيد الطراونة'),
    steady: child('تالا الحسن'),
  });
}

async function seedTrainingHistory(deps: Deps, input: DemoTrainingInput): Promise<DemoTrainingSummary> {
  const plan = trainingPlan(input.academicYear, input.today);
  if (plan.kind === 'too_early') return plan;
  const days = plan.schoolDays;
  const n = days.length;
  const schedule: [TrainingChild, (s: AnsweredSlot) => boolean, string[]][] = [
    // One day in each of the four weeks, the first and the last 21+ days apart.
    [input.steady, PATTERNS.steady, [days[0]!, days[Math.floor(n / 3)]!, days[Math.floor((2 * n) / 3)]!, days[n - 1]!]],
    [input.stalled, PATTERNS.stalled, days.slice(-6)],
    [input.rising, PATTERNS.rising, days.slice(-4)],
  ];
  let answers = 0;
  const practised = new Set<string>();
  for (const [child, pattern, childDays] of schedule) {
    for (const day of childDays) {
      answers += await practiseDay(deps, child.studentId, day, pattern);
      practised.add(day);
    }
  }
  for (const runner of ALERT_RUNNERS) await deps.projector.catchUp(runner);
  await deps.reactor.catchUp(ALERT_NOTIFIER);
  const ids = deps.sql.array(schedule.map(([c]) => c.studentId));
  const [counts] = await deps.sql<{ days: number; levels: number; moves: number; notifications: number }[]>`
    select (select count(*) from trn_days where student_id = any(${ids}::bigint[]) and ended_at is not null)::int as days,
           (select count(*) from trn_levels where student_id = any(${ids}::bigint[]))::int as levels,
           (select count(*) from es_events where event_type = 'TrainingLevelMoved')::int as moves,
           (select count(*) from notifications
             where source_entity_type = 'training_progress_alert')::int as notifications`;
  const alerts = await deps.sql<{ kind: string; n: number }[]>`
    select kind, count(*)::int as n from trn_alerts where student_id = any(${ids}::bigint[]) and status = 'open'
    group by 1 order by 1`;
  const sorted = [...practised].sort();
  return {
    kind: 'history',
    firstDay: sorted[0]!,
    lastDay: sorted.at(-1)!,
    ...counts!,
    answers,
    alerts: Object.fromEntries(alerts.map((a) => [a.kind, a.n])),
    names: `${input.rising.firstName} (rising), ${input.stalled.firstName} (stalled), ${input.steady.firstName} (steady)`,
  };
}

/** The seed's line about training. */
export function demoTrainingLine(s: DemoTrainingSummary): string {
  if (s.kind === 'too_early')
    return `Training: none seeded: four weeks of past training days from ${s.firstDay} do not fit in the academic year.`;
  const alerts =
    Object.entries(s.alerts)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ') || 'none';
  return (
    `Training: ${s.days} ended training days from ${s.firstDay} to ${s.lastDay} (${s.answers} answers) for ${s.names}; ` +
    `${s.levels} levels, ${s.moves} level moves; open alerts: ${alerts}; ${s.notifications} notifications to the ` +
    'class teacher (GET /api/training/students/{id}/levels; GET /api/training/alerts?classId=).'
  );
}
