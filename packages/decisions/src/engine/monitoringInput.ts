import { pinnedReadCuts, type StudentEvidence, windowCalendarState } from '@qiraa/assessment';
import type { AnySql } from '@qiraa/db';
import type { RuleSet } from '../rules/ruleSet';
import { baselineOf } from './decideMonitoring';
import type { Goal, Probe } from './monitoringTypes';

/** One academic year's input to `decideMonitoring`, read from the evidence, the cut tables and the calendar. */
export interface MonitoringYearInput {
  academicYear: string;
  probes: Probe[];
  goal: Goal | null;
  voidEventIds: string[];
}

/**
 * The years to monitor: every academic year with an oral reading of the rule set's cell, live or voided (a
 * year whose probes were all voided still gets its superseding safe stop). Probes are the live reads with a
 * WCPM; the goal is PMR-01's: the goal band's rate cut in the goal window of the cut table the baseline pinned
 * (same version, scope and grade), due on the first day of that window in the organization's calendar.
 */
export async function monitoringInputsOf(
  sql: AnySql,
  evidence: StudentEvidence,
  organizationId: string | null,
  rules: RuleSet,
): Promise<MonitoringYearInput[]> {
  const { cell, goalLine } = rules.monitoring;
  const reads = evidence.reads.filter((r) => r.cell === cell);
  const voided = evidence.voided.filter((v) => v.cell === cell);
  const years = [...new Set([...reads, ...voided].map((r) => r.academicYear))].sort();
  const inputs: MonitoringYearInput[] = [];
  for (const academicYear of years) {
    const probes: Probe[] = reads
      .filter((r) => r.academicYear === academicYear && r.wcpm !== null)
      .map((r) => ({
        attemptId: r.attemptId,
        at: r.at,
        wcpm: r.wcpm as number,
        band: r.band,
        window: r.window,
        grade: r.grade,
        cutVersion: r.cutVersion,
        cutOrganizationId: r.cutOrganizationId ?? null,
        eventIds: r.eventIds,
      }));
    const baseline = baselineOf(probes);
    let goal: Goal | null = null;
    if (baseline?.cutVersion && organizationId) {
      const [table, calendar] = await Promise.all([
        pinnedReadCuts(
          sql,
          { version: baseline.cutVersion, organizationId: baseline.cutOrganizationId },
          { cell, grade: baseline.grade, window: goalLine.goalWindow },
        ),
        windowCalendarState(sql, organizationId, academicYear),
      ]);
      const cut = table?.rate.find((c) => c.band === goalLine.goalBand);
      const window = calendar.windows.find((w) => w.window === goalLine.goalWindow);
      if (cut && window && !table?.rateWithheld) goal = { goalWcpm: cut.min, goalOn: window.startsOn };
    }
    const voidEventIds = voided.filter((v) => v.academicYear === academicYear).map((v) => v.voidEventId);
    inputs.push({ academicYear, probes, goal, voidEventIds });
  }
  return inputs;
}
