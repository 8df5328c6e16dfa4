/**
 * The training alert rules as versioned data (docs/training-alerts.md). Every alert records the rule id that
 * raised it and the rule-set version; a change of a threshold is a new version, never an edit of this one, so a
 * stored alert can always be re-derived with the version it names.
 */
export const TRAINING_ALERT_KINDS = ['no_progress_at_level', 'support_review_suggested'] as const;
export type TrainingAlertKind = (typeof TRAINING_ALERT_KINDS)[number];

export interface TrainingAlertRuleSet {
  version: string;
  /** TAL-01: the last `lastDays` ended days at the level, each with `minCounted`+ counted answers, all below `belowPercent`. */
  noProgress: { ruleId: 'TAL-01'; lastDays: number; minCounted: number; belowPercent: number };
  /** TAL-02: `minDaysAtLevel` calendar days at `level` with `minTrainingDays`+ ended training days there. */
  supportReview: { ruleId: 'TAL-02'; level: number; minDaysAtLevel: number; minTrainingDays: number };
  /** TAL-03: a change of the skill's level resolves every open or acknowledged alert of the stay it ends. */
  resolve: { ruleId: 'TAL-03' };
}

/** Every published version, for replay; the newest is the one alerts are raised with. */
export const TRAINING_ALERT_RULE_SETS: Readonly<Record<string, TrainingAlertRuleSet>> = {
  'alerts-v1': {
    version: 'alerts-v1',
    noProgress: { ruleId: 'TAL-01', lastDays: 3, minCounted: 3, belowPercent: 60 },
    supportReview: { ruleId: 'TAL-02', level: 1, minDaysAtLevel: 21, minTrainingDays: 3 },
    resolve: { ruleId: 'TAL-03' },
  },
};
export const CURRENT_ALERT_RULES = TRAINING_ALERT_RULE_SETS['alerts-v1']!;

/** One ended training day of the stay, as the alert evidence shows it. */
export interface StayDay {
  date: string;
  counted: number;
  correct: number;
}

/** A student's stay at one level of one skill: from the level's start to now, its ended days oldest first. */
export interface LevelStay {
  level: number;
  /** The school day the level started (`YYYY-MM-DD`). */
  since: string;
  days: readonly StayDay[];
}

export interface AlertEvidence {
  sessions: StayDay[];
  daysAtLevel: number;
}

export interface DerivedAlert {
  kind: TrainingAlertKind;
  ruleId: string;
  evidence: AlertEvidence;
}

const DAY_MS = 86_400_000;
/** Calendar days from the level's first school day to `asOf` (both `YYYY-MM-DD`); the first day counts as 0. */
export const daysBetween = (since: string, asOf: string) =>
  Math.max(0, Math.round((Date.parse(`${asOf}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / DAY_MS));

/** Below the percent, in integers (no float edge at exactly 60 percent: 3 of 5 is not below). */
const below = (day: StayDay, percent: number) => day.correct * 100 < percent * day.counted;

/**
 * The alerts a stay raises as of its newest ended day (the rules are evaluated when a day ends, never on a
 * timer: a child who stops practising raises nothing new). Pure and deterministic.
 */
export function decideTrainingAlerts(
  stay: LevelStay,
  rules: TrainingAlertRuleSet = CURRENT_ALERT_RULES,
): DerivedAlert[] {
  const newest = stay.days.at(-1);
  if (!newest) return [];
  const daysAtLevel = daysBetween(stay.since, newest.date);
  const alerts: DerivedAlert[] = [];
  const np = rules.noProgress;
  const last = stay.days.slice(-np.lastDays);
  if (last.length === np.lastDays && last.every((d) => d.counted >= np.minCounted && below(d, np.belowPercent))) {
    alerts.push({
      kind: 'no_progress_at_level',
      ruleId: np.ruleId,
      evidence: { sessions: last.map(copyDay), daysAtLevel },
    });
  }
  const sr = rules.supportReview;
  if (stay.level === sr.level && daysAtLevel >= sr.minDaysAtLevel && stay.days.length >= sr.minTrainingDays) {
    alerts.push({
      kind: 'support_review_suggested',
      ruleId: sr.ruleId,
      evidence: { sessions: stay.days.map(copyDay), daysAtLevel },
    });
  }
  return alerts;
}

const copyDay = (d: StayDay): StayDay => ({ date: d.date, counted: d.counted, correct: d.correct });

/**
 * TAL-02 as of a calendar day, whatever the newest ended day (the daily schedule): a child at level 1 who
 * stopped practising still reaches 21 days at the level, so the support review is suggested. Pure.
 */
export function supportReviewAsOf(
  stay: LevelStay,
  asOf: string,
  rules: TrainingAlertRuleSet = CURRENT_ALERT_RULES,
): DerivedAlert | null {
  const sr = rules.supportReview;
  const daysAtLevel = daysBetween(stay.since, asOf);
  if (stay.level !== sr.level || daysAtLevel < sr.minDaysAtLevel || stay.days.length < sr.minTrainingDays) return null;
  return {
    kind: 'support_review_suggested',
    ruleId: sr.ruleId,
    evidence: { sessions: stay.days.map(copyDay), daysAtLevel },
  };
}
