import { describe, expect, it } from 'vitest';
import { ruleSetOf, CURRENT_RULE_SET as rules } from '../rules/ruleSet';
import { PROFILE_CATALOG as catalog, statusRow as row } from '../testing/profileFixture';
import {
  decideProfile,
  decideRecommendation,
  domainMasteryOf,
  domainStatusesOf,
  type PriorProfile,
} from './decideProfiles';
import type { ProfileKey } from './profileTypes';

const BOY: ProfileKey = { academicYear: '2026-2027', window: 'BOY' };
const MOY: ProfileKey = { academicYear: '2026-2027', window: 'MOY' };
type Level = Parameters<typeof row>[1];
/** A window with decoding (two sub-skills), fluency and comprehension at these statuses. */
const windowOf = (decoding: Level, fluency: Level, comprehension: Level, decoding2: Level = 'strong') => [
  row('ls_short_vowels', decoding),
  row('fw_common_words', decoding2),
  row('or_connected_text', fluency),
  row('lc_explicit_detail', comprehension),
];
const profileOf = (...levels: Parameters<typeof windowOf>) => decideProfile(BOY, windowOf(...levels), catalog, rules);

describe('domain statuses (rule set v1)', () => {
  it('PR1-01 lowest_sub_skill_status: a decided domain takes the lowest of its sub-skills', () => {
    const [decoding] = domainStatusesOf(
      [row('ls_short_vowels', 'strong').decision, row('pw_closed_syllables', 'developing').decision],
      catalog,
      rules,
    );
    expect(decoding).toMatchObject({
      macroDomainId: 'decoding',
      status: 'developing',
      ruleId: 'PR1-01',
      subSkillIds: ['ls_short_vowels', 'pw_closed_syllables'],
      weakestSubSkillId: 'pw_closed_syllables',
      held: [],
    });
  });

  it('PR1-09 sub_skill_held: one held sub-skill holds the domain, naming it and why', () => {
    const [decoding] = domainStatusesOf(
      [row('ls_short_vowels', 'strong').decision, row('fw_common_words', 'split_evidence').decision],
      catalog,
      rules,
    );
    expect(decoding).toMatchObject({
      status: null,
      ruleId: 'PR1-09',
      held: [{ subSkillId: 'fw_common_words', holdReason: 'split_evidence' }],
    });
  });

  it('domains in catalog order; a sub-skill the catalog does not know is in none', () => {
    const domains = domainStatusesOf(
      [
        row('lc_explicit_detail', 'strong').decision,
        row('ls_short_vowels', 'strong').decision,
        row('zz_unknown', 'strong').decision,
      ],
      catalog,
      rules,
    );
    expect(domains.map((d) => d.macroDomainId)).toEqual(['decoding', 'comprehension']);
  });
});

describe('profile codes (rule set v1)', () => {
  it('PR2-01 ON_TRACK: both anchor groups at on_track or stronger', () => {
    expect(profileOf('on_track', 'strong', 'on_track')).toMatchObject({
      profileCode: 'PR2-01',
      profileName: 'ON_TRACK',
      safeStop: null,
      doNotDecideYet: false,
      groups: { word_level: 'secure', meaning: 'secure' },
    });
  });

  it('PR2-02 WORD_LEVEL_FOCUS: decoding or fluency below on_track, comprehension secure', () => {
    expect(profileOf('developing', 'strong', 'strong')).toMatchObject({
      profileCode: 'PR2-02',
      profileName: 'WORD_LEVEL_FOCUS',
    });
    expect(profileOf('strong', 'beginning', 'on_track')).toMatchObject({ profileCode: 'PR2-02' });
  });

  it('PR2-03 MEANING_FOCUS: comprehension below on_track, word level secure', () => {
    expect(profileOf('strong', 'on_track', 'developing')).toMatchObject({
      profileCode: 'PR2-03',
      profileName: 'MEANING_FOCUS',
      groups: { word_level: 'secure', meaning: 'support' },
    });
  });

  it('PR2-04 BROAD_FOCUS: both groups below on_track', () => {
    expect(profileOf('beginning', 'developing', 'developing')).toMatchObject({
      profileCode: 'PR2-04',
      profileName: 'BROAD_FOCUS',
    });
  });

  it('PR2-00 DATA_INCOMPLETE: an anchor domain held (any hold reason) is the guard profile', () => {
    for (const reason of ['insufficient_evidence', 'split_evidence', 'not_assessed'] as const) {
      expect(profileOf('strong', reason, 'strong')).toMatchObject({
        profileCode: 'PR2-00',
        profileName: 'DATA_INCOMPLETE',
        safeStop: 'DATA_INCOMPLETE',
        doNotDecideYet: true,
        groups: { word_level: null, meaning: 'secure' },
        missingDomains: [],
      });
    }
  });

  it('PR2-00 DATA_INCOMPLETE: an anchor domain with no row in the window (no oral reading yet)', () => {
    const p = decideProfile(
      BOY,
      [row('ls_short_vowels', 'strong'), row('lc_explicit_detail', 'strong')],
      catalog,
      rules,
    );
    expect(p).toMatchObject({ profileCode: 'PR2-00', missingDomains: ['fluency'] });
  });

  it('a held domain outside the anchor groups (spelling) does not hold the profile', () => {
    const p = decideProfile(
      BOY,
      [...windowOf('strong', 'strong', 'strong'), row('sp_sun_moon_lam', 'insufficient_evidence')],
      catalog,
      rules,
    );
    expect(p.profileCode).toBe('PR2-01');
    expect(p.domains.find((d) => d.macroDomainId === 'spelling')).toMatchObject({ ruleId: 'PR1-09' });
  });

  it('records the skill-status decision ids it read, sorted, and the rule-set version', () => {
    const w = windowOf('strong', 'strong', 'strong');
    const p = decideProfile(BOY, w, catalog, rules);
    expect(p.skillStatusDecisionIds).toEqual(w.map((x) => x.decisionId).sort());
    expect(p.ruleSetVersion).toBe('v1');
  });
});

describe('bundle recommendation (rule set v1)', () => {
  it('BRR-01 profile_anchor_bundle: the weakest domain of the anchor group anchors the bundle; its status sets the tier', () => {
    expect(decideRecommendation(profileOf('developing', 'beginning', 'strong'), catalog, rules)).toMatchObject({
      outcome: 'recommended',
      ruleId: 'BRR-01',
      bundleId: 'bnd_fluency_building',
      anchorSkillGroup: 'fluency',
      anchorSkillId: 'oral_text_reading',
      scaffoldTier: 'Level_1',
      sufficientData: true,
      nextDataAction: null,
    });
    // A tie goes to the group's first domain (decoding before fluency); the weakest sub-skill names the skill.
    expect(
      decideRecommendation(profileOf('strong', 'developing', 'strong', 'developing'), catalog, rules),
    ).toMatchObject({
      bundleId: 'bnd_decoding_foundations',
      anchorSkillGroup: 'decoding',
      anchorSkillId: 'familiar_word_reading',
      scaffoldTier: 'Level_2',
    });
    expect(decideRecommendation(profileOf('strong', 'strong', 'developing'), catalog, rules)).toMatchObject({
      bundleId: 'bnd_meaning_making',
      anchorSkillGroup: 'comprehension',
      scaffoldTier: 'Level_2',
    });
    expect(decideRecommendation(profileOf('beginning', 'developing', 'beginning'), catalog, rules)).toMatchObject({
      bundleId: 'bnd_words_and_meaning',
      scaffoldTier: 'Level_1',
    });
    expect(decideRecommendation(profileOf('on_track', 'strong', 'strong'), catalog, rules)).toMatchObject({
      bundleId: 'bnd_enrich_words',
      scaffoldTier: 'Level_3',
    });
  });

  it('BRR-08 no_catalog_bundle: a decided profile the catalog has no bundle for', () => {
    const empty = { ...catalog, bundles: [] };
    expect(decideRecommendation(profileOf('developing', 'strong', 'strong'), empty, rules)).toMatchObject({
      outcome: 'no_catalog_bundle',
      ruleId: 'BRR-08',
      bundleId: null,
      anchorSkillGroup: 'decoding',
      sufficientData: true,
    });
  });

  it('BRR-09 blocked_insufficient_evidence: the guard profile names the next data action', () => {
    const p = decideProfile(
      BOY,
      [
        row('ls_short_vowels', 'insufficient_evidence'),
        row('fw_common_words', 'split_evidence'),
        row('lc_explicit_detail', 'strong'),
      ],
      catalog,
      rules,
    );
    const r = decideRecommendation(p, catalog, rules);
    expect(r).toMatchObject({
      outcome: 'blocked_insufficient_evidence',
      ruleId: 'BRR-09',
      bundleId: null,
      scaffoldTier: null,
      sufficientData: false,
      nextDataAction: {
        action: 're_diagnostic_sitting',
        macroDomainId: 'decoding',
        subSkillIds: ['ls_short_vowels'],
        reason: 'insufficient_evidence',
      },
    });
    expect(r.nextDataSteps).toEqual([
      {
        action: 're_diagnostic_sitting',
        macroDomainId: 'decoding',
        subSkillIds: ['ls_short_vowels'],
        reason: 'insufficient_evidence',
      },
      {
        action: 'oral_reading_probe',
        macroDomainId: 'decoding',
        subSkillIds: ['fw_common_words'],
        reason: 'split_evidence',
      },
      { action: 'oral_reading_probe', macroDomainId: 'fluency', subSkillIds: [], reason: 'missing' },
    ]);
  });

  it('BRR-09: a comprehension domain nothing covered asks for a screening sitting', () => {
    const p = decideProfile(
      BOY,
      [row('ls_short_vowels', 'strong'), row('or_connected_text', 'strong')],
      catalog,
      rules,
    );
    expect(decideRecommendation(p, catalog, rules).nextDataAction).toEqual({
      action: 'screening_sitting',
      macroDomainId: 'comprehension',
      subSkillIds: [],
      reason: 'missing',
    });
  });
});

describe('MER-04 domain_status_up (rule set v1)', () => {
  const prior = (key: ProfileKey, decoding: PriorProfile['domains'][number]['status']): PriorProfile => ({
    ...key,
    domains: [{ macroDomainId: 'decoding', status: decoding }],
  });
  const at = (key: ProfileKey, decoding: Level) =>
    decideProfile(
      key,
      [
        row('ls_short_vowels', decoding, key.window),
        row('or_connected_text', 'strong', key.window),
        row('lc_explicit_detail', 'strong', key.window),
      ],
      catalog,
      rules,
    );

  it('a domain stronger than its standing status of the previous window earns domain_status_escalation', () => {
    expect(domainMasteryOf(at(MOY, 'on_track'), [prior(BOY, 'developing')], rules)).toEqual({
      ruleId: 'MER-04',
      sourceKind: 'domain_status_escalation',
      domains: [{ macroDomainId: 'decoding', from: 'developing', to: 'on_track' }],
    });
  });

  it('within a window: only above the window’s highest earlier status', () => {
    expect(domainMasteryOf(at(BOY, 'strong'), [prior(BOY, 'developing')], rules)).toMatchObject({
      domains: [{ from: 'developing', to: 'strong' }],
    });
    // Regained after a fall: nothing a second time.
    expect(domainMasteryOf(at(BOY, 'on_track'), [prior(BOY, 'on_track'), prior(BOY, 'developing')], rules)).toBeNull();
  });

  it('nothing for the first status ever, an equal or lower one, or the guard profile', () => {
    expect(domainMasteryOf(at(BOY, 'strong'), [], rules)).toBeNull();
    expect(domainMasteryOf(at(MOY, 'developing'), [prior(BOY, 'developing')], rules)).toBeNull();
    expect(domainMasteryOf(at(MOY, 'beginning'), [prior(BOY, 'developing')], rules)).toBeNull();
    const guard = decideProfile(MOY, [row('ls_short_vowels', 'strong', 'MOY')], catalog, rules);
    expect(domainMasteryOf(guard, [prior(BOY, 'beginning')], rules)).toBeNull();
  });

  it('a later window is never a baseline', () => {
    expect(domainMasteryOf(at(BOY, 'strong'), [prior(MOY, 'developing')], rules)).toBeNull();
  });
});

describe('rule set sections', () => {
  const raw = () => JSON.parse(JSON.stringify(rules.data));
  it('refuses a profile code mapped to other group needs, a missing code, a domain in two groups, and MER-04 on another kind', () => {
    const swapped = raw();
    swapped.profiles.codes[2].meaning = 'support';
    expect(() => ruleSetOf(swapped)).toThrow(/PR2-02 must be/);
    const missing = raw();
    missing.profiles.codes[4].id = 'PR2-09';
    expect(() => ruleSetOf(missing)).toThrow(/missing PR2-04/);
    const twice = raw();
    twice.profiles.groups.meaning.push('decoding');
    expect(() => ruleSetOf(twice)).toThrow(/one anchor group/);
    const kind = raw();
    kind.mastery.rules.find((r: { id: string }) => r.id === 'MER-04').sourceKind = 'band_progression';
    expect(() => ruleSetOf(kind)).toThrow(/MER-04 must earn domain_status_escalation/);
    const tier = raw();
    tier.recommendations.bundle.scaffoldTierOf.beginning = 'Level_9';
    expect(() => ruleSetOf(tier)).toThrow(/malformed/);
  });
});
