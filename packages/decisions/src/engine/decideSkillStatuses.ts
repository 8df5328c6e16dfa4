import type { ReadEvidence, ScreeningWindow, SittingEvidence, StudentEvidence } from '@qiraa/assessment';
import { type RuleSet, rankOf, STATUS_TOKENS, type StatusToken } from '../rules/ruleSet';
import type { EvidenceSummary, SkillStatusDecision, SkillStatusKey } from './skillStatusTypes';

const WINDOW_ORDER: Record<ScreeningWindow, number> = { BOY: 0, MOY: 1, EOY: 2 };

interface KeyEvidence {
  key: SkillStatusKey;
  sittings: SittingEvidence[];
  reads: ReadEvidence[];
  voidEventIds: string[];
}

/**
 * The skill status of every sub-skill of every window the evidence touches. Pure and deterministic: the
 * same evidence and rule set give the same decisions, in the same order, with the same evidence ids.
 *
 * A sub-skill of a window is decided when a live (ended, non-voided) attempt of the window covers it: a
 * sitting whose plan holds it, or a read of the cell the rule set maps to it. When only voided attempts
 * covered it, the answer is the no-evidence row (no rule ids, `doNotDecideYet`, read as not assessed).
 */
export function decideSkillStatuses(evidence: StudentEvidence, rules: RuleSet): SkillStatusDecision[] {
  const keys = new Map<string, KeyEvidence>();
  const entry = (academicYear: string, window: ScreeningWindow, subSkillId: string) => {
    const id = `${academicYear}|${WINDOW_ORDER[window]}|${subSkillId}`;
    let found = keys.get(id);
    if (!found) {
      found = { key: { academicYear, window, subSkillId }, sittings: [], reads: [], voidEventIds: [] };
      keys.set(id, found);
    }
    return found;
  };
  for (const s of evidence.sittings) {
    for (const subSkillId of s.subSkillIds) entry(s.academicYear, s.window, subSkillId).sittings.push(s);
  }
  for (const r of evidence.reads) {
    const subSkillId = rules.oralCellSubSkills[r.cell];
    if (subSkillId) entry(r.academicYear, r.window, subSkillId).reads.push(r);
  }
  for (const v of evidence.voided) {
    const covered = v.kind === 'digital_sitting' ? v.subSkillIds : [rules.oralCellSubSkills[v.cell]];
    for (const subSkillId of covered) {
      if (subSkillId) entry(v.academicYear, v.window, subSkillId).voidEventIds.push(v.voidEventId);
    }
  }
  // Arrival order never matters: every list is put in one order before deciding.
  const byTime = (a: { at: string; attemptId: string }, b: { at: string; attemptId: string }) =>
    a.at.localeCompare(b.at) || a.attemptId.localeCompare(b.attemptId);
  return [...keys.keys()].sort().map((id) => {
    const k = keys.get(id) as KeyEvidence;
    k.sittings.sort((a, b) =>
      byTime({ at: a.startedAt, attemptId: a.attemptId }, { at: b.startedAt, attemptId: b.attemptId }),
    );
    k.reads.sort(byTime);
    return decideOne(k, rules);
  });
}

function decideOne(k: KeyEvidence, rules: RuleSet): SkillStatusDecision {
  const { subSkillId } = k.key;
  const questions = k.sittings.flatMap((s) =>
    s.questions.filter((q) => q.subSkillId === subSkillId && q.correct !== null),
  );
  const answered = questions.length;
  const correct = questions.filter((q) => q.correct).length;
  const percent = answered > 0 ? Math.floor((correct * 100) / answered) : null;
  const reads = k.reads;
  const banded = reads.filter((r) => r.band !== null);
  const digitalToken = percent === null ? null : tokenOfPercent(percent, rules);
  const oralToken = banded.length > 0 ? lowerMedian(banded.map((r) => r.band as StatusToken)) : null;
  const measureCodes = new Set(questions.map((q) => q.measureCode));
  const measures = k.sittings.flatMap((s) =>
    s.measures
      .filter((m) => measureCodes.has(m.measureCode))
      .map((m) => ({
        sessionId: s.attemptId,
        measureCode: m.measureCode,
        raw: m.raw,
        max: m.max,
        level: m.level,
        complete: m.complete,
        provisional: m.provisional,
      })),
  );
  const evidence: EvidenceSummary = {
    items: { answered, correct, percent, token: answered >= rules.minItems ? digitalToken : null },
    measures,
    reads: reads.map((r) => ({
      attemptId: r.attemptId,
      cell: r.cell,
      at: r.at,
      wcpm: r.wcpm,
      accuracy: r.accuracy,
      band: r.band,
      provisional: r.provisional,
    })),
    oralToken,
    voidedAttempts: k.voidEventIds.length,
    provisional: measures.some((m) => m.provisional) || reads.some((r) => r.provisional),
  };
  const evidenceEventIds = [
    ...k.sittings.flatMap((s) => [
      s.startedEventId,
      s.endedEventId,
      ...s.questions.flatMap((q) => (q.subSkillId === subSkillId && q.eventId ? [q.eventId] : [])),
    ]),
    ...reads.flatMap((r) => r.eventIds),
  ].sort();
  const base = {
    ...k.key,
    ruleSetVersion: rules.version,
    evidenceEventIds,
    voidEventIds: [...k.voidEventIds].sort(),
    evidence,
  };
  const hold = (holdReason: SkillStatusDecision['holdReason'], adrRuleId: string | null, ssrRuleId: string | null) => ({
    ...base,
    status: null,
    adrRuleId,
    ssrRuleId,
    doNotDecideYet: true,
    holdReason,
  });
  const decided = (status: StatusToken, adrRuleId: string, ssrRuleId: string) => ({
    ...base,
    status,
    adrRuleId,
    ssrRuleId,
    doNotDecideYet: false,
    holdReason: null,
  });

  // The no-evidence row: only voided attempts of this window covered the sub-skill.
  if (k.sittings.length === 0 && k.reads.length === 0) return hold('not_assessed', null, null);
  const enoughItems = answered >= rules.minItems;
  const enoughProbes = banded.length >= rules.minBandedProbes;
  if (enoughItems && enoughProbes && digitalToken && oralToken) {
    // ADR-03: both sources are adequate; they must agree within the margin (SSR-03) or it is a split (SSR-04).
    const gap = Math.abs(rankOf(digitalToken) - rankOf(oralToken));
    if (gap > rules.maxAgreeingGap) return hold('split_evidence', 'ADR-03', 'SSR-04');
    return decided(rankOf(digitalToken) <= rankOf(oralToken) ? digitalToken : oralToken, 'ADR-03', 'SSR-03');
  }
  if (enoughProbes && oralToken) return decided(oralToken, 'ADR-02', 'SSR-02');
  if (enoughItems && digitalToken) return decided(digitalToken, 'ADR-01', 'SSR-01');
  return hold('insufficient_evidence', 'ADR-09', null);
}

/** SSR-01: the percent correct against the rule set's rising cuts. */
export function tokenOfPercent(percent: number, rules: Pick<RuleSet, 'digitalMinPercent'>): StatusToken {
  const cuts = rules.digitalMinPercent;
  if (percent >= cuts.strong) return 'strong';
  if (percent >= cuts.on_track) return 'on_track';
  if (percent >= cuts.developing) return 'developing';
  return 'beginning';
}

/** SSR-02: the median band of the probes; with an even count the lower of the two middle ones. */
export function lowerMedian(bands: readonly StatusToken[]): StatusToken {
  const sorted = [...bands].sort((a, b) => rankOf(a) - rankOf(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? STATUS_TOKENS[0];
}
