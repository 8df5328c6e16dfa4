import { type Static, Type } from 'typebox';

/**
 * The `profiles` and `recommendations` sections of a decision rule set (docs/decisions-profiles.md). Rule ids
 * `PR1-nn` (a macro-domain's status), `PR2-nn` (the profile codes) and `BRR-nn` (the bundle recommendation):
 * each names one branch of engine `decideProfiles`.
 */
const Token = Type.Union(['beginning', 'developing', 'on_track', 'strong'].map((t) => Type.Literal(t)));
const Need = Type.Union([Type.Literal('secure'), Type.Literal('support')]);
const Tier = Type.Union(['Level_1', 'Level_2', 'Level_3'].map((t) => Type.Literal(t)));
const Action = Type.Union(
  ['screening_sitting', 're_diagnostic_sitting', 'oral_reading_probe'].map((t) => Type.Literal(t)),
);
const ActionOf = Type.Object(
  { insufficient_evidence: Action, split_evidence: Action, not_assessed: Action, missing: Action },
  { additionalProperties: false },
);
const Named = (id: string) =>
  Type.Object({ id: Type.Literal(id), name: Type.String() }, { additionalProperties: false });

export const ProfilesSectionSchema = Type.Object(
  {
    // The macro-domains each anchor group reads (catalog ids), in the order ties are broken.
    groups: Type.Object(
      {
        word_level: Type.Array(Type.String(), { minItems: 1 }),
        meaning: Type.Array(Type.String(), { minItems: 1 }),
      },
      { additionalProperties: false },
    ),
    // A group whose lowest domain status is below this token needs support.
    supportBelow: Token,
    domainStatus: Named('PR1-01'),
    domainHeld: Named('PR1-09'),
    codes: Type.Array(
      Type.Object(
        {
          id: Type.String({ pattern: '^PR2-[0-9]{2}$' }),
          name: Type.String(),
          wordLevel: Type.Optional(Need),
          meaning: Type.Optional(Need),
        },
        { additionalProperties: false },
      ),
      { minItems: 5, maxItems: 5 },
    ),
  },
  { additionalProperties: false },
);

export const RecommendationsSectionSchema = Type.Object(
  {
    bundle: Type.Object(
      {
        id: Type.Literal('BRR-01'),
        name: Type.String(),
        // Which group's weakest domain anchors the bundle, per decided profile code.
        anchorGroupOf: Type.Object(
          {
            'PR2-01': Type.Union([Type.Literal('word_level'), Type.Literal('meaning')]),
            'PR2-02': Type.Union([Type.Literal('word_level'), Type.Literal('meaning')]),
            'PR2-03': Type.Union([Type.Literal('word_level'), Type.Literal('meaning')]),
            'PR2-04': Type.Union([Type.Literal('word_level'), Type.Literal('meaning')]),
          },
          { additionalProperties: false },
        ),
        scaffoldTierOf: Type.Object(
          { beginning: Tier, developing: Tier, on_track: Tier, strong: Tier },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    noCatalogBundle: Named('BRR-08'),
    blocked: Type.Object(
      {
        id: Type.Literal('BRR-09'),
        name: Type.Literal('blocked_insufficient_evidence'),
        // The next data action per kind of sub-skill (oral: one the rule set maps to an oral cell) and reason.
        nextDataActionOf: Type.Object({ digital: ActionOf, oral: ActionOf }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export type ProfileRules = Static<typeof ProfilesSectionSchema>;
export type RecommendationRules = Static<typeof RecommendationsSectionSchema>;

const EXPECTED_CODES: Record<string, { wordLevel?: string; meaning?: string }> = {
  'PR2-00': {},
  'PR2-01': { wordLevel: 'secure', meaning: 'secure' },
  'PR2-02': { wordLevel: 'support', meaning: 'secure' },
  'PR2-03': { wordLevel: 'secure', meaning: 'support' },
  'PR2-04': { wordLevel: 'support', meaning: 'support' },
};

/** Cross-checks the schema cannot express; returns the problem or null. */
export function profilesProblem(p: ProfileRules): string | null {
  for (const [id, needs] of Object.entries(EXPECTED_CODES)) {
    const code = p.codes.find((c) => c.id === id);
    if (!code) return `missing ${id}`;
    // Each code is one branch of the engine: its group needs are fixed, the rule set names them.
    if (code.wordLevel !== needs.wordLevel || code.meaning !== needs.meaning) {
      return `${id} must be word level ${needs.wordLevel ?? 'none'}, meaning ${needs.meaning ?? 'none'}`;
    }
  }
  const all = [...p.groups.word_level, ...p.groups.meaning];
  if (new Set(all).size !== all.length) return 'a macro-domain belongs to one anchor group only';
  return null;
}
