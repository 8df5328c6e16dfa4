import { type RuleSet, rankOf, type StatusToken } from '../rules/ruleSet';
import type {
  AnchorGroup,
  DomainMasteryCredit,
  DomainStatus,
  GroupNeed,
  NextDataStep,
  ProfileCode,
  ProfileDecision,
  ProfileKey,
  ProfileName,
  RecommendationDecision,
  ScaffoldTier,
  SupportBundle,
} from './profileTypes';
import type { SkillStatusDecision } from './skillStatusTypes';

/** What the profile rules need of the content catalog (built from `loadCatalog`, see profileCatalogOf). */
export interface ProfileCatalog {
  /** Macro-domain ids in catalog order. */
  macroDomains: readonly string[];
  /** Sub-skill → its macro-domain, and → its skill. */
  domainOf: ReadonlyMap<string, string>;
  skillOf: ReadonlyMap<string, string>;
  /** Sub-skill ids in catalog order. */
  subSkills: readonly string[];
  bundles: readonly SupportBundle[];
}

/** A window's skill-status decision with its id (the profile's evidence). */
export interface WindowStatus {
  decision: SkillStatusDecision;
  decisionId: string;
}

const lowest = (tokens: readonly StatusToken[]) => tokens.reduce((low, t) => (rankOf(t) < rankOf(low) ? t : low));
const catalogOrder = (order: readonly string[]) => (a: string, b: string) =>
  (order.indexOf(a) === -1 ? 999 : order.indexOf(a)) - (order.indexOf(b) === -1 ? 999 : order.indexOf(b)) ||
  a.localeCompare(b);

/**
 * The macro-domains of a window's statuses. PR1-01: a domain whose sub-skills are all decided takes the lowest
 * of their statuses (the status a teacher plans from is the one every part of the domain supports). PR1-09: a
 * domain with a sub-skill held (`do_not_decide_yet`, any reason) is held itself: a part of it is unknown.
 */
export function domainStatusesOf(
  statuses: readonly SkillStatusDecision[],
  catalog: ProfileCatalog,
  rules: RuleSet,
): DomainStatus[] {
  const byDomain = new Map<string, SkillStatusDecision[]>();
  for (const s of statuses) {
    const domain = catalog.domainOf.get(s.subSkillId);
    if (!domain) continue; // a sub-skill the catalog no longer knows belongs to no domain
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), s]);
  }
  const bySubSkill = catalogOrder(catalog.subSkills);
  return [...byDomain.keys()].sort(catalogOrder(catalog.macroDomains)).map((macroDomainId) => {
    const rows = [...(byDomain.get(macroDomainId) ?? [])].sort((a, b) => bySubSkill(a.subSkillId, b.subSkillId));
    const subSkillIds = rows.map((r) => r.subSkillId);
    const held = rows
      .filter((r) => r.doNotDecideYet || r.status === null)
      .map((r) => ({ subSkillId: r.subSkillId, holdReason: r.holdReason ?? ('insufficient_evidence' as const) }));
    if (held.length > 0) {
      return {
        macroDomainId,
        status: null,
        ruleId: rules.profiles.domainHeld.id,
        subSkillIds,
        weakestSubSkillId: null,
        held,
      };
    }
    const status = lowest(rows.map((r) => r.status as StatusToken));
    const weakestSubSkillId = rows.find((r) => r.status === status)?.subSkillId ?? null;
    return { macroDomainId, status, ruleId: rules.profiles.domainStatus.id, subSkillIds, weakestSubSkillId, held: [] };
  });
}

/**
 * A student's profile of one window (docs/decisions-profiles.md). Each anchor group (word level: decoding and
 * fluency; meaning: comprehension) is secure or needs support by the lowest status of its domains against
 * `supportBelow`; the two needs name the profile code (PR2-01..04). PR2-00 `DATA_INCOMPLETE`, the guard: an
 * anchor domain has no status row in the window, or is held (PR1-09).
 */
export function decideProfile(
  key: ProfileKey,
  window: readonly WindowStatus[],
  catalog: ProfileCatalog,
  rules: RuleSet,
): ProfileDecision {
  const p = rules.profiles;
  const domains = domainStatusesOf(
    window.map((w) => w.decision),
    catalog,
    rules,
  );
  const domainById = new Map(domains.map((d) => [d.macroDomainId, d]));
  const missingDomains: string[] = [];
  const needOf = (group: AnchorGroup): GroupNeed | null => {
    let complete = true;
    const tokens: StatusToken[] = [];
    for (const id of p.groups[group]) {
      const d = domainById.get(id);
      if (!d) missingDomains.push(id);
      if (!d?.status) complete = false;
      else tokens.push(d.status);
    }
    if (!complete) return null;
    return rankOf(lowest(tokens)) < rankOf(p.supportBelow) ? 'support' : 'secure';
  };
  const groups = { word_level: needOf('word_level'), meaning: needOf('meaning') };
  const code =
    groups.word_level && groups.meaning
      ? (p.codes.find((c) => c.wordLevel === groups.word_level && c.meaning === groups.meaning) ?? p.codes[0])
      : (p.codes.find((c) => c.id === 'PR2-00') ?? p.codes[0]);
  const guard = code?.id === 'PR2-00';
  return {
    academicYear: key.academicYear,
    window: key.window,
    profileCode: code?.id as ProfileCode,
    profileName: code?.name as ProfileName,
    safeStop: guard ? 'DATA_INCOMPLETE' : null,
    doNotDecideYet: guard,
    groups,
    domains,
    missingDomains,
    ruleSetVersion: rules.version,
    skillStatusDecisionIds: window.map((w) => w.decisionId).sort(),
  };
}

/** Whether a sub-skill's next probe is oral: the rule set maps it to an oral cell (a read settles it). */
const isOral = (subSkillId: string, rules: RuleSet) => Object.values(rules.oralCellSubSkills).includes(subSkillId);

/**
 * BRR-09's steps: for each anchor domain in group order, what would let the profile be decided. A missing
 * domain: the action for `missing` (oral when every catalog sub-skill of the domain is an oral cell's, as
 * fluency's passage reading). A held domain: one step per kind (digital, oral) and hold reason.
 */
function nextDataStepsOf(profile: ProfileDecision, catalog: ProfileCatalog, rules: RuleSet): NextDataStep[] {
  const actionOf = rules.recommendations.blocked.nextDataActionOf;
  const steps: NextDataStep[] = [];
  for (const group of ['word_level', 'meaning'] as const) {
    for (const macroDomainId of rules.profiles.groups[group]) {
      const domain = profile.domains.find((d) => d.macroDomainId === macroDomainId);
      if (!domain) {
        const subs = catalog.subSkills.filter((s) => catalog.domainOf.get(s) === macroDomainId);
        const oral = subs.length > 0 && subs.every((s) => isOral(s, rules));
        steps.push({
          action: (oral ? actionOf.oral : actionOf.digital).missing,
          macroDomainId,
          subSkillIds: [],
          reason: 'missing',
        });
        continue;
      }
      const grouped = new Map<string, NextDataStep>();
      for (const h of domain.held) {
        const kind = isOral(h.subSkillId, rules) ? 'oral' : 'digital';
        const k = `${kind}|${h.holdReason}`;
        const step = grouped.get(k) ?? {
          action: actionOf[kind][h.holdReason],
          macroDomainId,
          subSkillIds: [],
          reason: h.holdReason,
        };
        step.subSkillIds.push(h.subSkillId);
        grouped.set(k, step);
      }
      steps.push(...grouped.values());
    }
  }
  return steps;
}

/**
 * The bundle recommendation of a profile (docs/decisions-profiles.md):
 * - BRR-09 `blocked_insufficient_evidence` on the guard profile, naming the next data action;
 * - BRR-01: the anchor group of the profile code (`anchorGroupOf`), its weakest domain (group order on a tie)
 *   the anchor; the catalog bundle of (profile code, anchor domain); the scaffold tier from the anchor's status;
 * - BRR-08 `no_catalog_bundle` when the catalog has no such bundle (a catalog gap, not a data gap).
 */
export function decideRecommendation(
  profile: ProfileDecision,
  catalog: ProfileCatalog,
  rules: RuleSet,
): RecommendationDecision {
  const r = rules.recommendations;
  const base = {
    academicYear: profile.academicYear,
    window: profile.window,
    profileCode: profile.profileCode,
    ruleSetVersion: rules.version,
  };
  if (profile.doNotDecideYet) {
    const steps = nextDataStepsOf(profile, catalog, rules);
    return {
      ...base,
      outcome: 'blocked_insufficient_evidence',
      ruleId: r.blocked.id,
      bundleId: null,
      anchorSkillGroup: null,
      anchorSkillId: null,
      scaffoldTier: null,
      sufficientData: false,
      nextDataAction: steps[0] ?? null,
      nextDataSteps: steps,
    };
  }
  const group = r.bundle.anchorGroupOf[profile.profileCode as 'PR2-01'];
  let anchor: DomainStatus | undefined;
  for (const id of rules.profiles.groups[group]) {
    const d = profile.domains.find((x) => x.macroDomainId === id);
    if (d?.status && (!anchor?.status || rankOf(d.status) < rankOf(anchor.status))) anchor = d;
  }
  const anchorStatus = anchor?.status as StatusToken;
  const bundle = catalog.bundles.find(
    (b) => b.profileCode === profile.profileCode && b.anchorMacroDomainId === anchor?.macroDomainId,
  );
  // The anchor skill: the skill of the anchor domain's first sub-skill at the anchor's (lowest) status.
  const weakest = anchor?.weakestSubSkillId;
  return {
    ...base,
    outcome: bundle ? 'recommended' : 'no_catalog_bundle',
    ruleId: bundle ? r.bundle.id : r.noCatalogBundle.id,
    bundleId: bundle?.id ?? null,
    anchorSkillGroup: anchor?.macroDomainId ?? null,
    anchorSkillId: weakest ? (catalog.skillOf.get(weakest) ?? null) : null,
    scaffoldTier: r.bundle.scaffoldTierOf[anchorStatus] as ScaffoldTier,
    sufficientData: true,
    nextDataAction: null,
    nextDataSteps: [],
  };
}

/** An earlier profile decision of the student (stream order), as MER-04 reads it. */
export interface PriorProfile extends ProfileKey {
  domains: readonly Pick<DomainStatus, 'macroDomainId' | 'status'>[];
}

const WINDOW_ORDER = { BOY: 0, MOY: 1, EOY: 2 } as const;
const before = (a: ProfileKey, b: ProfileKey) =>
  a.academicYear < b.academicYear ||
  (a.academicYear === b.academicYear && WINDOW_ORDER[a.window] < WINDOW_ORDER[b.window]);

/**
 * MER-04 `domain_status_escalation`: the domains whose status in a new (non-guard) profile is stronger, by the
 * rule's `minRankGain`, than both the highest status the domain had in an earlier profile of the same window
 * and its standing (latest) status in the most recent earlier window that has one. A domain seen for the
 * first time earns nothing (no step to measure); a status regained after a fall within a window earns nothing
 * again. Null when no domain rose, or on the guard profile (a partial domain profile is a halt signal).
 */
export function domainMasteryOf(
  profile: ProfileDecision,
  priors: readonly PriorProfile[],
  rules: RuleSet,
): DomainMasteryCredit | null {
  if (profile.doNotDecideYet) return null;
  const rule = rules.mastery.domainEscalation;
  const rose: DomainMasteryCredit['domains'] = [];
  for (const d of profile.domains) {
    if (!d.status) continue;
    const of = (p: PriorProfile) => p.domains.find((x) => x.macroDomainId === d.macroDomainId)?.status ?? null;
    const sameWindow = priors
      .filter((p) => p.academicYear === profile.academicYear && p.window === profile.window)
      .map(of)
      .filter((s): s is StatusToken => s !== null);
    const windowHigh = sameWindow.length ? sameWindow.reduce((h, t) => (rankOf(t) > rankOf(h) ? t : h)) : null;
    const earlier = priors.filter((p) => before(p, profile) && of(p) !== null);
    let standing: StatusToken | null = null;
    if (earlier.length > 0) {
      const latest = earlier.reduce((m, p) => (before(m, p) ? p : m));
      const inLatest = earlier.filter((p) => p.academicYear === latest.academicYear && p.window === latest.window);
      standing = of(inLatest[inLatest.length - 1] as PriorProfile);
    }
    if (windowHigh === null && standing === null) continue;
    const gain = (from: StatusToken | null) =>
      from === null || rankOf(d.status as StatusToken) - rankOf(from) >= rule.minRankGain;
    if (!gain(windowHigh) || !gain(standing)) continue;
    const from = [windowHigh, standing]
      .filter((s): s is StatusToken => s !== null)
      .reduce((h, t) => (rankOf(t) > rankOf(h) ? t : h));
    rose.push({ macroDomainId: d.macroDomainId, from, to: d.status });
  }
  return rose.length > 0 ? { ruleId: rule.id, sourceKind: rule.sourceKind, domains: rose } : null;
}
