import { readFileSync } from 'node:fs';
import { EngineUnavailableError } from '@qiraa/http-kit';
import { type Static, Type } from 'typebox';
import Value from 'typebox/value';
import { HOLD_REASONS, type HoldReason } from '../engine/skillStatusTypes';
import { type MonitoringRules, MonitoringSectionSchema, monitoringProblem } from './monitoringRules';
import {
  type ProfileRules,
  ProfilesSectionSchema,
  profilesProblem,
  type RecommendationRules,
  RecommendationsSectionSchema,
} from './profileRules';

/**
 * The closed, asset-framed status tokens of a sub-skill, weakest first. The same four words as the read bands
 * of the assessment context, so an oral band and a status read alike; they reach parents only as one of four
 * Arabic phrases (parent portal), never as the token. No deficit word ("at risk", "struggling") anywhere.
 */
export const STATUS_TOKENS = ['beginning', 'developing', 'on_track', 'strong'] as const;
export type StatusToken = (typeof STATUS_TOKENS)[number];
export const rankOf = (token: StatusToken) => STATUS_TOKENS.indexOf(token);

const Token = Type.Union(STATUS_TOKENS.map((t) => Type.Literal(t)));
const RuleId = (prefix: 'ADR' | 'SSR' | 'MER' | 'TLS') => Type.String({ pattern: `^${prefix}-[0-9]{2}$` });
const Count = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]);
const Percent = Type.Integer({ minimum: 0, maximum: 100 });
/** A training level (catalog `training_level`, table content_training_levels): 1..4. */
const TrainingLevel = Type.Integer({ minimum: 1, maximum: 4 });
export type TrainingLevelNumber = 1 | 2 | 3 | 4;

/** The gamification source kinds decisions earn (docs/literacy-core.md "Who emits which mastery event"). */
export const MASTERY_RULE_KINDS = [
  'skill_status_transition',
  'subskill_state_up',
  'band_progression',
  'cbm_trend_above_goal',
  'domain_status_escalation',
] as const;
export type MasteryRuleKind = (typeof MASTERY_RULE_KINDS)[number];
/** Each mastery rule id is one branch of engine/masteryRules.ts, earning exactly this source kind. */
const MASTERY_RULE_IDS: Readonly<Record<string, MasteryRuleKind>> = {
  'MER-01': 'skill_status_transition',
  'MER-02': 'subskill_state_up',
  'MER-03': 'band_progression',
  'MER-05': 'cbm_trend_above_goal',
  'MER-04': 'domain_status_escalation',
};

/** The shape of `rules/v<N>.json`, checked when the module loads (a malformed rule set never starts). */
const RuleSetSchema = Type.Object(
  {
    version: Type.String({ pattern: '^v[0-9]+$' }),
    publishedAt: Type.String({ format: 'date' }),
    statusTokens: Type.Array(Token, { minItems: 4, maxItems: 4 }),
    oralCellSubSkills: Type.Object(
      { oral_text: Type.String(), oral_familiar_words: Type.String(), oral_pseudowords: Type.String() },
      { additionalProperties: false },
    ),
    adequacy: Type.Array(
      Type.Object(
        {
          id: RuleId('ADR'),
          name: Type.String(),
          requires: Type.Object({ minItems: Count, minBandedProbes: Count }, { additionalProperties: false }),
          statusRules: Type.Array(RuleId('SSR')),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    status: Type.Array(
      Type.Object(
        {
          id: RuleId('SSR'),
          name: Type.String(),
          minPercent: Type.Optional(
            Type.Object({ developing: Percent, on_track: Percent, strong: Percent }, { additionalProperties: false }),
          ),
          maxRankGap: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
          minRankGap: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
        },
        { additionalProperties: false },
      ),
    ),
    mastery: Type.Object(
      {
        // What "stronger" means: a higher rank in the four tokens (statuses and read bands alike).
        stronger: Type.Literal('higher_token_rank'),
        rules: Type.Array(
          Type.Object(
            {
              id: RuleId('MER'),
              name: Type.String(),
              sourceKind: Type.Union(MASTERY_RULE_KINDS.map((k) => Type.Literal(k))),
              minRankGain: Type.Integer({ minimum: 1, maximum: 3 }),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    // Training-level seeds (docs/decisions-training-seeds.md): which screen result starts a skill's training.
    trainingSeeds: Type.Object(
      {
        source: Type.Literal('screen'),
        rules: Type.Array(
          Type.Object(
            {
              id: RuleId('TLS'),
              name: Type.String(),
              from: Type.Optional(Type.Literal('latest_complete_measure')),
              trainingLevelOf: Type.Optional(
                Type.Object(
                  { '1': TrainingLevel, '2': TrainingLevel, '3': TrainingLevel, '4': TrainingLevel },
                  { additionalProperties: false },
                ),
              ),
              haltOn: Type.Optional(Type.Array(Type.Union(HOLD_REASONS.map((r) => Type.Literal(r))))),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    monitoring: MonitoringSectionSchema,
    // Profiles and bundle recommendations (docs/decisions-profiles.md).
    profiles: ProfilesSectionSchema,
    recommendations: RecommendationsSectionSchema,
  },
  { additionalProperties: false },
);

/** One mastery rule as the engine reads it. */
export interface MasteryRule {
  readonly id: string;
  readonly sourceKind: MasteryRuleKind;
  readonly minRankGain: number;
}

export type RuleSetData = Static<typeof RuleSetSchema>;

/** The training-seed rules as the engine reads them (engine/trainingSeeds.ts, one branch per id). */
export interface TrainingSeedRules {
  /** TLS-01: the latest complete measure of the skill in the window seeds its training level. */
  readonly seed: {
    readonly id: string;
    readonly trainingLevelOf: Readonly<Record<1 | 2 | 3 | 4, TrainingLevelNumber>>;
  };
  /** TLS-08: a sub-skill the measure covers is held with one of these reasons: no seed. */
  readonly skillHeld: { readonly id: string; readonly haltOn: ReadonlySet<HoldReason> };
  /** TLS-09: no live sitting of the window completed a measure of the skill with a level: no seed. */
  readonly noCompleteMeasure: { readonly id: string };
}

/** A loaded rule set: the data plus the thresholds the engine reads, resolved by rule id. */
export interface RuleSet {
  readonly version: string;
  readonly data: RuleSetData;
  readonly oralCellSubSkills: Readonly<Record<string, string>>;
  readonly minItems: number;
  readonly minBandedProbes: number;
  readonly digitalMinPercent: { developing: number; on_track: number; strong: number };
  readonly maxAgreeingGap: number;
  /** MER-01 (between windows), MER-02 (within a window), MER-03 (a read's band). */
  readonly mastery: {
    readonly betweenWindows: MasteryRule;
    readonly withinWindow: MasteryRule;
    readonly band: MasteryRule;
    /** MER-05: the first above-goal trend of an academic year (progress monitoring). */
    readonly trendAboveGoal: MasteryRule;
    /** MER-04: a macro-domain's status rose (profiles). */
    readonly domainEscalation: MasteryRule;
  };
  readonly trainingSeeds: TrainingSeedRules;
  /** Progress monitoring (PMR-01..04, PMR-09): docs/decisions-monitoring.md. */
  readonly monitoring: MonitoringRules;
  /** Profiles (PR1-01, PR1-09, PR2-00..04): docs/decisions-profiles.md. */
  readonly profiles: ProfileRules;
  /** Bundle recommendations (BRR-01, BRR-08, BRR-09). */
  readonly recommendations: RecommendationRules;
}

/**
 * A decision rule set that cannot be loaded or evaluated: the decision engine is unavailable, so a request it
 * reaches answers 503 `ENGINE_UNAVAILABLE` (spec error table).
 */
export class RuleSetError extends EngineUnavailableError {
  constructor(version: string, problem: string) {
    super('decision', `decision rule set ${version}: ${problem}`);
    this.name = 'RuleSetError';
  }
}

/**
 * Checks a rule set's data and resolves it. The engine's rule ids are fixed (each names one branch of
 * decideSkillStatuses); a rule set chooses their thresholds. So a version must carry every one of them, with
 * thresholds that agree (the split rule starts where the agreeing one ends; the percent cuts rise).
 */
export function ruleSetOf(raw: unknown): RuleSet {
  const version = (raw as { version?: unknown })?.version;
  const name = typeof version === 'string' ? version : '?';
  if (!Value.Check(RuleSetSchema, raw)) {
    const first = [...Value.Errors(RuleSetSchema, raw)][0];
    throw new RuleSetError(name, `malformed (${first?.instancePath ?? ''} ${first?.message ?? ''})`);
  }
  const data = raw;
  if (data.statusTokens.join() !== STATUS_TOKENS.join()) throw new RuleSetError(name, 'status tokens differ');
  const adr = (id: string) => data.adequacy.find((r) => r.id === id) ?? missing(name, id);
  const ssr = (id: string) => data.status.find((r) => r.id === id) ?? missing(name, id);
  const combined = adr('ADR-03');
  const oral = adr('ADR-02');
  const digital = adr('ADR-01');
  adr('ADR-09');
  const percent = ssr('SSR-01').minPercent ?? missing(name, 'SSR-01 minPercent');
  ssr('SSR-02');
  const agree = ssr('SSR-03').maxRankGap ?? missing(name, 'SSR-03 maxRankGap');
  const split = ssr('SSR-04').minRankGap ?? missing(name, 'SSR-04 minRankGap');
  if (split !== agree + 1) throw new RuleSetError(name, 'SSR-04 must start where SSR-03 ends');
  if (!(percent.developing < percent.on_track && percent.on_track < percent.strong)) {
    throw new RuleSetError(name, 'SSR-01 percent cuts must rise');
  }
  const minItems = digital.requires.minItems ?? missing(name, 'ADR-01 minItems');
  const minBandedProbes = oral.requires.minBandedProbes ?? missing(name, 'ADR-02 minBandedProbes');
  if (combined.requires.minItems !== minItems || combined.requires.minBandedProbes !== minBandedProbes) {
    throw new RuleSetError(name, 'ADR-03 must require what ADR-01 and ADR-02 require');
  }
  const mer = (id: string): MasteryRule => {
    const rule = data.mastery.rules.find((r) => r.id === id) ?? missing(name, id);
    if (rule.sourceKind !== MASTERY_RULE_IDS[id])
      throw new RuleSetError(name, `${id} must earn ${MASTERY_RULE_IDS[id]}`);
    return { id, sourceKind: rule.sourceKind, minRankGain: rule.minRankGain };
  };
  const tls = (id: string) => data.trainingSeeds.rules.find((r) => r.id === id) ?? missing(name, id);
  const levelOf = tls('TLS-01').trainingLevelOf ?? missing(name, 'TLS-01 trainingLevelOf');
  const trainingLevelOf = { 1: levelOf['1'], 2: levelOf['2'], 3: levelOf['3'], 4: levelOf['4'] } as Record<
    1 | 2 | 3 | 4,
    TrainingLevelNumber
  >;
  // A stronger screen result never starts a lower level than a weaker one.
  if (
    !(
      trainingLevelOf[1] <= trainingLevelOf[2] &&
      trainingLevelOf[2] <= trainingLevelOf[3] &&
      trainingLevelOf[3] <= trainingLevelOf[4]
    )
  ) {
    throw new RuleSetError(name, 'TLS-01 training levels must not fall as the measure level rises');
  }
  const haltOn = tls('TLS-08').haltOn ?? missing(name, 'TLS-08 haltOn');
  tls('TLS-09');
  const trainingSeeds: TrainingSeedRules = {
    seed: { id: 'TLS-01', trainingLevelOf },
    skillHeld: { id: 'TLS-08', haltOn: new Set(haltOn) },
    noCompleteMeasure: { id: 'TLS-09' },
  };
  const mastery = {
    betweenWindows: mer('MER-01'),
    withinWindow: mer('MER-02'),
    band: mer('MER-03'),
    trendAboveGoal: mer('MER-05'),
    domainEscalation: mer('MER-04'),
  };
  const monitoringError = monitoringProblem(data.monitoring);
  if (monitoringError) throw new RuleSetError(name, monitoringError);
  const profilesError = profilesProblem(data.profiles);
  if (profilesError) throw new RuleSetError(name, profilesError);
  return {
    version: data.version,
    data,
    oralCellSubSkills: data.oralCellSubSkills,
    minItems,
    minBandedProbes,
    digitalMinPercent: percent,
    maxAgreeingGap: agree,
    mastery,
    trainingSeeds,
    monitoring: data.monitoring,
    profiles: data.profiles,
    recommendations: data.recommendations,
  };
}

function missing(version: string, what: string): never {
  throw new RuleSetError(version, `missing ${what}`);
}

const load = (file: string) =>
  ruleSetOf(JSON.parse(readFileSync(new URL(`../../rules/${file}`, import.meta.url), 'utf8')));

/** Every published rule set by version: a decision folds with the version it pinned, never the current one. */
export const RULE_SETS: ReadonlyMap<string, RuleSet> = new Map([['v1', load('v1.json')]]);

/** The version new decisions pin. */
export const CURRENT_RULE_SET: RuleSet = RULE_SETS.get('v1') as RuleSet;

export function ruleSetVersion(version: string): RuleSet {
  const found = RULE_SETS.get(version);
  if (!found) throw new RuleSetError(version, 'unknown version');
  return found;
}
