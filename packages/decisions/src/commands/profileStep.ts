import { type Catalog, loadCatalog } from '@qiraa/content';
import type { AnySql, Sql } from '@qiraa/db';
import {
  deterministicEventId,
  type EventStore,
  isOfType,
  type NewEvent,
  type Recorded,
  readStreamThrough,
} from '@qiraa/eventstore';
import type { MasteryEventInput } from '@qiraa/gamification';
import {
  decideProfile,
  decideRecommendation,
  domainMasteryOf,
  type PriorProfile,
  type ProfileCatalog,
  type WindowStatus,
} from '../engine/decideProfiles';
import type { ProfileCode, ProfileDecision, ProfileKey, RecommendationDecision } from '../engine/profileTypes';
import { type DecisionEvent, decisionEvents, streams } from '../events';
import {
  BUNDLE_BLOCKED,
  BUNDLE_RECOMMENDED,
  PROFILE_EVENT_TYPES,
  PROFILE_RESOLVED,
  type ProfileEvent,
  type ProfileResolved,
  RECOMMENDATION_EVENT_TYPES,
} from '../events/profileEvents';
import type { RuleSet } from '../rules/ruleSet';

/** A profile decision's id: the same window, rule-set version and skill-status decisions always give the same id. */
export const profileDecisionIdOf = (studentId: number, p: ProfileDecision) =>
  deterministicEventId(
    'profile',
    studentId,
    p.academicYear,
    p.window,
    p.ruleSetVersion,
    p.skillStatusDecisionIds.join(','),
  );

/** A recommendation's id: its profile decision and what it recommends. */
export const recommendationIdOf = (profileDecisionId: string, r: RecommendationDecision) =>
  deterministicEventId(
    'recommendation',
    profileDecisionId,
    r.outcome,
    r.bundleId ?? '-',
    r.scaffoldTier ?? '-',
    r.anchorSkillId ?? '-',
  );

/** The profile rules' view of the content catalog (sub-skill → domain, skill; the support bundles). */
export function profileCatalogOf(catalog: Catalog): ProfileCatalog {
  return {
    macroDomains: catalog.macroDomains.map((d) => d.id),
    domainOf: new Map(
      catalog.subSkills.flatMap((s) => {
        const skill = catalog.skillById.get(s.skillId);
        return skill ? [[s.id, skill.macroDomainId] as const] : [];
      }),
    ),
    skillOf: new Map(catalog.subSkills.map((s) => [s.id, s.skillId])),
    subSkills: catalog.subSkills.map((s) => s.id),
    bundles: catalog.supportBundles,
  };
}

const windowKey = (k: ProfileKey) => `${k.academicYear}|${k.window}`;

/** What the decision stream already says of profiles. */
export interface ProfileStreamState {
  ids: Set<string>;
  /** Every profile decision in stream order (MER-04's priors). */
  priors: (PriorProfile & { id: string; profileCode: ProfileCode })[];
  /** The latest recommendation per window. */
  recommendations: Map<string, { id: string; bundleId: string | null }>;
}

export async function profileStreamOf(sql: AnySql, store: EventStore, studentId: number): Promise<ProfileStreamState> {
  const streamId = streams.decision(studentId);
  const types = [...PROFILE_EVENT_TYPES];
  const rows = decisionEvents(await readStreamThrough(store, sql, streamId, { types }));
  const state: ProfileStreamState = { ids: new Set(), priors: [], recommendations: new Map() };
  for (const r of rows) {
    state.ids.add(r.eventId);
    if (r.type === PROFILE_RESOLVED) {
      const d = r.data;
      state.priors.push({
        id: r.eventId,
        academicYear: d.academicYear,
        window: d.window,
        profileCode: d.profileCode,
        domains: d.domains,
      });
    } else if (isOfType(...RECOMMENDATION_EVENT_TYPES)(r)) {
      const d = r.data;
      state.recommendations.set(windowKey(d), { id: r.eventId, bundleId: d.bundleId });
    }
  }
  return state;
}

interface StepInput {
  sql: AnySql;
  pool: Sql;
  store: EventStore;
  studentId: number;
  organizationId: string | null;
  decidedAt: string;
  rules: RuleSet;
  /** Every skill-status decision the engine makes of the student now (all windows), with its id. */
  decided: readonly WindowStatus[];
}

/** The profile of every window the statuses cover, with its recommendation (pure; the replay uses it too). */
export function profilesOf(decided: readonly WindowStatus[], catalog: ProfileCatalog, rules: RuleSet) {
  const windows = new Map<string, WindowStatus[]>();
  for (const d of decided) windows.set(windowKey(d.decision), [...(windows.get(windowKey(d.decision)) ?? []), d]);
  return [...windows.values()].map((statuses) => {
    const { academicYear, window } = statuses[0]!.decision;
    const profile = decideProfile({ academicYear, window }, statuses, catalog, rules);
    return { profile, recommendation: decideRecommendation(profile, catalog, rules) };
  });
}

/**
 * The profile events a recompute appends beside the skill statuses (same append, same expected version): per
 * window whose statuses changed, a `ProfileResolved` (with MER-04 when a domain rose) and its recommendation
 * (`BundleRecommended` or `BundleBlocked`). Windows in time order, so a BOY and a MOY decided together compare.
 */
export async function profileEventsOf(input: StepInput): Promise<NewEvent<ProfileEvent>[]> {
  const { studentId, organizationId, decidedAt, rules } = input;
  const [catalog, state] = await Promise.all([
    loadCatalog(input.pool),
    profileStreamOf(input.sql, input.store, studentId),
  ]);
  const decided = profilesOf(input.decided, profileCatalogOf(catalog), rules).sort((a, b) =>
    windowRankOf(a.profile) < windowRankOf(b.profile) ? -1 : 1,
  );
  const priors = [...state.priors];
  const events: NewEvent<ProfileEvent>[] = [];
  for (const { profile, recommendation } of decided) {
    const profileDecisionId = profileDecisionIdOf(studentId, profile);
    if (state.ids.has(profileDecisionId)) continue;
    const sameWindow = priors.filter((p) => windowKey(p) === windowKey(profile));
    const data: ProfileResolved = {
      ...profile,
      profileDecisionId,
      studentId,
      organizationId,
      supersedesProfileDecisionId: sameWindow.at(-1)?.id ?? null,
      previousProfileCode: priors.filter((p) => p.profileCode !== 'PR2-00').at(-1)?.profileCode ?? null,
      decidedAt,
      mastery: domainMasteryOf(profile, priors, rules),
    };
    events.push({ eventId: profileDecisionId, type: PROFILE_RESOLVED, data, metadata: { organizationId } });
    priors.push({ ...profile, id: profileDecisionId });
    const recommendationId = recommendationIdOf(profileDecisionId, recommendation);
    if (state.ids.has(recommendationId)) continue;
    const previous = state.recommendations.get(windowKey(profile));
    events.push({
      eventId: recommendationId,
      type: recommendation.outcome === 'blocked_insufficient_evidence' ? BUNDLE_BLOCKED : BUNDLE_RECOMMENDED,
      data: {
        ...recommendation,
        recommendationId,
        profileDecisionId,
        studentId,
        organizationId,
        supersedesRecommendationId: previous?.id ?? null,
        previousBundleId: previous?.bundleId ?? null,
        decidedAt,
      },
      metadata: { organizationId },
    });
  }
  return events;
}

const WINDOW_ORDER = { BOY: 0, MOY: 1, EOY: 2 } as const;
const windowRankOf = (k: ProfileKey) => `${k.academicYear}|${WINDOW_ORDER[k.window]}`;

/** The mastery session of a profile's credit: one per window, as the skill statuses' (the XP cap is per session). */
const masterySessionOf = (k: ProfileKey) => `decisions:${k.academicYear}:${k.window}`;

/** MER-04's mastery event of a `ProfileResolved` (a macro domain rose), or none. */
export function profileMasteryInputOf(e: Recorded<DecisionEvent>): MasteryEventInput | null {
  if (e.type !== PROFILE_RESOLVED) return null;
  const d = e.data;
  if (!d.mastery || d.doNotDecideYet) return null;
  return {
    engineEventId: d.profileDecisionId,
    causationEventId: e.eventId,
    studentId: d.studentId,
    sourceKind: d.mastery.sourceKind,
    // The first domain that rose (catalog order): the ledger names one skill per event.
    skillId: d.mastery.domains[0]?.macroDomainId ?? null,
    occurredAt: d.decidedAt,
    sessionId: masterySessionOf(d),
  };
}
