import type { RuleSet } from '../rules/ruleSet';
import type {
  DerivedAlert,
  Goal,
  GoalLine,
  MonitoringDecision,
  MonitoringHoldReason,
  Probe,
  ProbePoint,
  TrendLine,
  TrendToken,
} from './monitoringTypes';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Probes in time order (the attempt id breaks a tie, so the order never depends on the input's). */
export const inTimeOrder = (probes: readonly Probe[]) =>
  [...probes].sort((a, b) =>
    a.at === b.at ? (a.attemptId < b.attemptId ? -1 : 1) : Date.parse(a.at) - Date.parse(b.at),
  );

/**
 * PMR-01's baseline: the first banded probe of the year (its pinned cut table names the benchmark). No banded
 * probe, no baseline: a monitoring start score never defaults to 0 (that corrupts every trend after it).
 */
export const baselineOf = (probes: readonly Probe[]): Probe | null =>
  inTimeOrder(probes).find((p) => p.band !== null) ?? null;

/** PMR-01: the line from the baseline to the goal on its day; the weekly gain never below the rule's floor. */
export function goalLineOf(baseline: Probe, goal: Goal, rules: RuleSet): GoalLine | null {
  const weeks = (dayStart(goal.goalOn) - Date.parse(baseline.at)) / WEEK;
  // A baseline read in the goal window (or after it) leaves no weeks to grow in: no goal line.
  if (weeks < 1) return null;
  const weeklyGain = Math.max(rules.monitoring.goalLine.minWeeklyGain, (goal.goalWcpm - baseline.wcpm) / weeks);
  return {
    baselineAttemptId: baseline.attemptId,
    baselineAt: baseline.at,
    baselineWcpm: baseline.wcpm,
    goalWcpm: goal.goalWcpm,
    goalOn: goal.goalOn,
    weeklyGain: round(weeklyGain, 2),
    cutVersion: baseline.cutVersion,
    grade: baseline.grade,
  };
}

interface Point {
  x: number;
  y: number;
}

/** Ordinary least squares over points (x in weeks); null when every x is the same. */
export function leastSquares(points: readonly Point[]): { slope: number; intercept: number } | null {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

type Judged =
  | { decision: TrendToken; trend: TrendLine; hold: null }
  | { decision: null; trend: TrendLine | null; hold: MonitoringHoldReason };

/** PMR-02 on a series of probes (from the baseline on), or why it does not decide yet (PMR-09). */
function judge(series: readonly Probe[], line: GoalLine, rules: RuleSet): Judged {
  const rule = rules.monitoring.trend;
  const origin = Date.parse(line.baselineAt);
  const points = series.map((p) => ({ x: (Date.parse(p.at) - origin) / WEEK, y: p.wcpm }));
  const spanDays = series.length === 0 ? 0 : (Date.parse(series.at(-1)!.at) - Date.parse(series[0]!.at)) / DAY;
  const fit = leastSquares(points);
  // A line over less than the minimum span is noise, not a rate (two rereads minutes apart fit a slope of
  // millions of WCPM a week): the safe stop shows no trend line until the span is there.
  const trend =
    fit && spanDays >= rule.minSpanDays
      ? {
          slope: round(fit.slope, 2),
          intercept: round(fit.intercept, 1),
          probes: series.length,
          spanDays: Math.floor(spanDays),
        }
      : null;
  if (series.length < rule.minProbes) return { decision: null, trend, hold: 'too_few_probes' };
  if (spanDays < rule.minSpanDays || !fit || !trend) return { decision: null, trend, hold: 'too_short_span' };
  const gap = fit.slope - line.weeklyGain;
  const decision: TrendToken =
    gap > rule.slopeTolerance ? 'above_goal' : gap < -rule.slopeTolerance ? 'below_goal' : 'on_goal';
  return { decision, trend, hold: null };
}

const sortedIds = (probes: readonly Probe[]) => [...new Set(probes.flatMap((p) => p.eventIds))].sort();

/**
 * PMR-03: walks the probes in time; a probe at least `minDropWcpm` and `minDropPercent` below what the least
 * squares line of the earlier clean probes (at least `minPriorProbes`) predicts for its day opens an alert.
 * While it is open, further low probes keep it open (and stay out of the line, as outliers); the first probe
 * back within the threshold of that same line closes it (`recovered`).
 */
function acuteRegressions(series: readonly Probe[], line: GoalLine, rules: RuleSet) {
  const rule = rules.monitoring.acuteRegression;
  const origin = Date.parse(line.baselineAt);
  const clean: Point[] = [];
  const flagged = new Set<string>();
  const alerts: DerivedAlert[] = [];
  let open: { alert: DerivedAlert; anchor: Probe } | null = null;
  for (const probe of series) {
    const x = (Date.parse(probe.at) - origin) / WEEK;
    const fit = clean.length >= rule.minPriorProbes ? leastSquares(clean) : null;
    if (!fit) {
      clean.push({ x, y: probe.wcpm });
      continue;
    }
    const predicted = fit.intercept + fit.slope * x;
    const drop = predicted - probe.wcpm;
    const low = drop >= rule.minDropWcpm && drop >= (predicted * rule.minDropPercent) / 100;
    if (low) {
      flagged.add(probe.attemptId);
      if (!open) {
        const alert: DerivedAlert = {
          alertKind: 'acute_regression',
          academicYear: '',
          anchorAttemptId: probe.attemptId,
          status: 'open',
          closeReason: null,
          ruleId: rule.id,
          evidenceEventIds: sortedIds([probe]),
          detail: { wcpm: probe.wcpm, predictedWcpm: round(predicted, 1), dropWcpm: round(drop, 1) },
        };
        alerts.push(alert);
        open = { alert, anchor: probe };
      }
      continue;
    }
    clean.push({ x, y: probe.wcpm });
    if (open) {
      open.alert.status = 'closed';
      open.alert.closeReason = 'recovered';
      open.alert.evidenceEventIds = sortedIds([open.anchor, probe]);
      open = null;
    }
  }
  return { alerts, flagged };
}

/**
 * PMR-04: the trend decided after each probe (PMR-02 on the probes up to it). A below-goal trend opens an
 * alert; `escalateAfterProbes` more probes with the trend still below goal escalate it; an on- or above-goal
 * trend closes it (`trend_recovered`). A safe stop changes nothing (only the first probes of a year hold).
 */
function trendAlerts(series: readonly Probe[], line: GoalLine, rules: RuleSet): DerivedAlert[] {
  const rule = rules.monitoring.trendAlert;
  const alerts: DerivedAlert[] = [];
  let open: { alert: DerivedAlert; below: number; anchor: Probe } | null = null;
  for (let k = 0; k < series.length; k++) {
    const judged = judge(series.slice(0, k + 1), line, rules);
    const probe = series[k]!;
    if (judged.decision === 'below_goal') {
      if (!open) {
        const alert: DerivedAlert = {
          alertKind: 'trend_below_goal',
          academicYear: '',
          anchorAttemptId: probe.attemptId,
          status: 'open',
          closeReason: null,
          ruleId: rule.id,
          evidenceEventIds: sortedIds([probe]),
          detail: { probesBelowGoal: 1 },
        };
        alerts.push(alert);
        open = { alert, below: 1, anchor: probe };
      } else {
        open.below++;
        open.alert.detail = { probesBelowGoal: open.below };
        if (open.below - 1 >= rule.escalateAfterProbes) open.alert.status = 'escalated';
      }
    } else if (judged.decision !== null && open) {
      open.alert.status = 'closed';
      open.alert.closeReason = 'trend_recovered';
      open.alert.evidenceEventIds = sortedIds([open.anchor, probe]);
      open = null;
    }
  }
  return alerts;
}

/**
 * Progress monitoring of one academic year, pure: the probes (the year's live oral readings with a WCPM), the
 * goal the baseline's pinned cut table sets (null when it sets none), the voids of the year's oral readings.
 * Returns the trend decision (PMR-02, or the safe stop PMR-09) and every alert the probes raise (PMR-03,
 * PMR-04) with its status now.
 */
export function decideMonitoring(
  input: { academicYear: string; probes: readonly Probe[]; goal: Goal | null; voidEventIds: readonly string[] },
  rules: RuleSet,
): MonitoringDecision {
  const baseline = baselineOf(input.probes);
  const line = baseline && input.goal ? goalLineOf(baseline, input.goal, rules) : null;
  const ordered = inTimeOrder(input.probes);
  const series = baseline ? ordered.slice(ordered.indexOf(baseline)) : [];
  const base = {
    academicYear: input.academicYear,
    ruleSetVersion: rules.version,
    evidenceEventIds: sortedIds(series.length > 0 ? series : ordered),
    voidEventIds: [...input.voidEventIds].sort(),
  };
  const hold = (holdReason: MonitoringHoldReason, trend: TrendLine | null = null) => ({
    ...base,
    decision: null,
    doNotDecideYet: true,
    holdReason,
    ruleId: rules.monitoring.insufficient.id,
    goalLine: line,
    trend,
  });
  const points = (flagged: ReadonlySet<string>): ProbePoint[] =>
    (series.length > 0 ? series : ordered).map((p) => ({
      attemptId: p.attemptId,
      at: p.at,
      wcpm: p.wcpm,
      band: p.band,
      goalLineWcpm: line
        ? round(line.baselineWcpm + (line.weeklyGain * (Date.parse(p.at) - Date.parse(line.baselineAt))) / WEEK, 1)
        : null,
      acuteRegression: flagged.has(p.attemptId),
    }));
  if (!baseline) return { trend: { ...hold('no_baseline'), probes: points(new Set()) }, alerts: [] };
  if (!line) return { trend: { ...hold('no_goal'), probes: points(new Set()) }, alerts: [] };
  const acute = acuteRegressions(series, line, rules);
  const alerts = [...acute.alerts, ...trendAlerts(series, line, rules)].map((a) => ({
    ...a,
    academicYear: input.academicYear,
  }));
  const judged = judge(series, line, rules);
  const probes = points(acute.flagged);
  if (judged.hold) return { trend: { ...hold(judged.hold, judged.trend), probes }, alerts };
  return {
    trend: {
      ...base,
      decision: judged.decision,
      doNotDecideYet: false,
      holdReason: null,
      ruleId: rules.monitoring.trend.id,
      goalLine: line,
      trend: judged.trend,
      probes,
    },
    alerts,
  };
}

/**
 * MER-05: a trend decision above the goal line earns `cbm_trend_above_goal` when no earlier trend decision of
 * the same academic year was above it (the year's first; a trend that dips and comes back earns nothing again).
 */
export function trendMasteryOf(
  decision: { decision: TrendToken | null; doNotDecideYet: boolean },
  earlierOfYear: readonly (TrendToken | null)[],
  rules: RuleSet,
) {
  if (decision.doNotDecideYet || decision.decision !== 'above_goal') return null;
  if (earlierOfYear.includes('above_goal')) return null;
  const rule = rules.mastery.trendAboveGoal;
  return { ruleId: rule.id, sourceKind: rule.sourceKind };
}
