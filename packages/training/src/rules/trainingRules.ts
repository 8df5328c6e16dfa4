import { readFileSync } from 'node:fs';
import { type Static, Type } from 'typebox';
import Value from 'typebox/value';

const Rate = Type.Number({ minimum: 0, maximum: 1 });
const Level = Type.Integer({ minimum: 1, maximum: 4 });

const BridgeRuleSchema = Type.Object({
  id: Type.String({ pattern: '^BR-[0-9]{2}$' }),
  targetSkillId: Type.String(),
  level: Level,
  supportSkills: Type.Array(Type.String(), { minItems: 1 }),
});

/** The shape of `rules/<version>.json`: every number the training rules read, versioned. */
export const TrainingRulesSchema = Type.Object({
  version: Type.String(),
  counted: Type.Object({ rapidFloorMs: Type.Integer({ minimum: 0 }) }),
  day: Type.Object({
    exercises: Type.Integer({ minimum: 1 }),
    questionsPerExercise: Type.Integer({ minimum: 1 }),
    exitQuestions: Type.Integer({ minimum: 0 }),
    capSeconds: Type.Integer({ minimum: 60 }),
    idleGapSeconds: Type.Integer({ minimum: 1 }),
    targetsPerDay: Type.Integer({ minimum: 1 }),
  }),
  moves: Type.Object({
    up: Type.Object({
      ruleId: Type.String(),
      window: Type.Integer({ minimum: 1 }),
      minCorrectRate: Rate,
      minDays: Type.Integer({ minimum: 1 }),
    }),
    down: Type.Object({
      ruleId: Type.String(),
      block: Type.Integer({ minimum: 1 }),
      belowRate: Rate,
      blocks: Type.Integer({ minimum: 1 }),
    }),
    rebaseline: Type.Object({ ruleId: Type.String() }),
  }),
  start: Type.Object({
    screen: Type.Object({ ruleId: Type.String() }),
    backtrack: Type.Object({ ruleId: Type.String(), levelsBack: Type.Integer({ minimum: 0, maximum: 3 }) }),
    experienceType: Type.Object({ ruleId: Type.String(), level: Level }),
  }),
  support: Type.Object({
    triggerWrongFirstTries: Type.Integer({ minimum: 1 }),
    questions: Type.Integer({ minimum: 1 }),
    promptTier: Type.Integer({ minimum: 1, maximum: 3 }),
    maxLevel: Level,
  }),
  bridgeRules: Type.Array(BridgeRuleSchema),
});
export type TrainingRules = Static<typeof TrainingRulesSchema>;
export type BridgeRule = Static<typeof BridgeRuleSchema>;

export class TrainingRulesError extends Error {}

/** Checks a rule file beyond its shape: unique bridge ids, no step above `support.maxLevel`, one rule per cell. */
export function trainingRulesOf(data: unknown): TrainingRules {
  if (!Value.Check(TrainingRulesSchema, data)) {
    const first = [...Value.Errors(TrainingRulesSchema, data)][0];
    throw new TrainingRulesError(`training rules: ${first?.instancePath ?? ''} ${first?.message ?? 'invalid'}`);
  }
  const rules = data as TrainingRules;
  const ids = new Set<string>();
  const cells = new Set<string>();
  for (const rule of rules.bridgeRules) {
    if (ids.has(rule.id)) throw new TrainingRulesError(`training rules ${rules.version}: ${rule.id} twice`);
    ids.add(rule.id);
    const cell = `${rule.targetSkillId}|${rule.level}`;
    if (cells.has(cell)) throw new TrainingRulesError(`training rules ${rules.version}: two bridge rules for ${cell}`);
    cells.add(cell);
    if (rule.level > rules.support.maxLevel) {
      throw new TrainingRulesError(`training rules ${rules.version}: ${rule.id} above level ${rules.support.maxLevel}`);
    }
  }
  return rules;
}

const load = (file: string) =>
  trainingRulesOf(JSON.parse(readFileSync(new URL(`../../rules/${file}`, import.meta.url), 'utf8')));

/** Every published training rule set by version; events pin the version they were decided with. */
export const TRAINING_RULE_SETS: ReadonlyMap<string, TrainingRules> = new Map([['training-v1', load('v1.json')]]);
export const CURRENT_TRAINING_RULES: TrainingRules = TRAINING_RULE_SETS.get('training-v1')!;

export const bridgeRuleFor = (rules: TrainingRules, skillId: string, level: number): BridgeRule | null =>
  rules.bridgeRules.find((r) => r.targetSkillId === skillId && r.level === level) ?? null;
