import type { ProfileCatalog, WindowStatus } from '../engine/decideProfiles';
import type { SkillStatusDecision } from '../engine/skillStatusTypes';
import type { StatusToken } from '../rules/ruleSet';

/** The catalog 2026.1 sub-skills the profile rules read (domain and skill of each), for unit specs. */
const SUB_SKILLS: [string, string, string][] = [
  ['ls_short_vowels', 'letter_sounds', 'decoding'],
  ['ls_long_vowels', 'letter_sounds', 'decoding'],
  ['sb_open_syllables', 'syllable_blending', 'phonological_awareness'],
  ['fw_common_words', 'familiar_word_reading', 'decoding'],
  ['pw_closed_syllables', 'pseudoword_decoding', 'decoding'],
  ['or_connected_text', 'oral_text_reading', 'fluency'],
  ['lc_explicit_detail', 'literal_comprehension', 'comprehension'],
  ['lc_event_order', 'literal_comprehension', 'comprehension'],
  ['sp_sun_moon_lam', 'spelling_patterns', 'spelling'],
];

const bundle = (id: string, profileCode: string, anchorMacroDomainId: string) => ({
  id,
  labelAr: id,
  profileCode,
  anchorMacroDomainId,
  gradeMin: 1,
  gradeMax: 4,
  steps: [{ ordinal: 1, stepCode: 'step', labelAr: 'خطوة', skillId: 'letter_sounds' }],
});

export const PROFILE_CATALOG: ProfileCatalog = {
  macroDomains: ['phonological_awareness', 'decoding', 'fluency', 'comprehension', 'spelling', 'morphology'],
  domainOf: new Map(SUB_SKILLS.map(([s, , d]) => [s, d])),
  skillOf: new Map(SUB_SKILLS.map(([s, k]) => [s, k])),
  subSkills: SUB_SKILLS.map(([s]) => s),
  bundles: [
    bundle('bnd_enrich_words', 'PR2-01', 'decoding'),
    bundle('bnd_enrich_expression', 'PR2-01', 'fluency'),
    bundle('bnd_decoding_foundations', 'PR2-02', 'decoding'),
    bundle('bnd_fluency_building', 'PR2-02', 'fluency'),
    bundle('bnd_meaning_making', 'PR2-03', 'comprehension'),
    bundle('bnd_words_and_meaning', 'PR2-04', 'decoding'),
    bundle('bnd_fluency_and_meaning', 'PR2-04', 'fluency'),
  ],
};

let n = 0;
/** A skill-status decision of BOY 2026-2027: a status, or a hold reason (a safe stop). */
export function statusRow(
  subSkillId: string,
  status: StatusToken | 'insufficient_evidence' | 'split_evidence' | 'not_assessed',
  window: SkillStatusDecision['window'] = 'BOY',
): WindowStatus {
  const held = status === 'insufficient_evidence' || status === 'split_evidence' || status === 'not_assessed';
  const decisionId = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  return {
    decisionId,
    decision: {
      academicYear: '2026-2027',
      window,
      subSkillId,
      status: held ? null : status,
      adrRuleId: held ? 'ADR-09' : 'ADR-01',
      ssrRuleId: held ? null : 'SSR-01',
      doNotDecideYet: held,
      holdReason: held ? status : null,
      ruleSetVersion: 'v1',
      evidenceEventIds: [decisionId],
      voidEventIds: [],
      evidence: {
        items: { answered: 0, correct: 0, percent: null, token: null },
        measures: [],
        reads: [],
        oralToken: null,
        voidedAttempts: 0,
        provisional: false,
      },
    },
  };
}
