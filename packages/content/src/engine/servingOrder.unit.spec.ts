import { describe, expect, it } from 'vitest';
import { type ServingCandidate, type ServingPlace, servedList } from './servingOrder';

const at: ServingPlace = {
  organizationId: 'org_A',
  schoolId: 'sch_A',
  grade: 1,
  skillId: 'familiar_word_reading',
  window: 'MOY',
};

let serial = 0;
const list = (over: Partial<ServingCandidate>): ServingCandidate => ({
  id: `wl_${serial++}`,
  scope: 'global',
  organizationId: null,
  schoolId: null,
  grade: 1,
  skillId: 'familiar_word_reading',
  window: 'MOY',
  version: 1,
  publishedAt: new Date('2026-09-01T08:00:00Z'),
  ...over,
});

const global = list({});
const globalAll = list({ window: null });
const org = list({ scope: 'organization', organizationId: 'org_A' });
const orgAll = list({ scope: 'organization', organizationId: 'org_A', window: null });
const school = list({ scope: 'school', organizationId: 'org_A', schoolId: 'sch_A', window: null });

describe('servedList', () => {
  it('serves the school’s list first, then the organization’s, then global', () => {
    expect(servedList([global, org, school], at)).toBe(school);
    expect(servedList([global, org], at)).toBe(org);
    expect(servedList([global], at)).toBe(global);
  });

  it('puts scope before window: an organization all-window list beats a global window list', () => {
    expect(servedList([global, orgAll], at)).toBe(orgAll);
  });

  it('serves a window list before an all-window list of the same scope', () => {
    expect(servedList([orgAll, org], at)).toBe(org);
    expect(servedList([globalAll, global], at)).toBe(global);
  });

  it('serves the newest (latest publishedAt) of equal candidates', () => {
    const older = list({ scope: 'organization', organizationId: 'org_A', publishedAt: new Date('2026-08-01') });
    const newer = list({ scope: 'organization', organizationId: 'org_A', publishedAt: new Date('2026-10-01') });
    expect(servedList([newer, older], at)).toBe(newer);
    expect(servedList([older, newer], at)).toBe(newer);
  });

  it('ignores other organizations, other schools, other windows, grades and skills', () => {
    const others = [
      list({ scope: 'organization', organizationId: 'org_B' }),
      list({ scope: 'school', organizationId: 'org_A', schoolId: 'sch_other' }),
      list({ window: 'BOY' }),
      list({ grade: 2 }),
      list({ skillId: 'pseudoword_decoding' }),
    ];
    expect(servedList(others, at)).toBeNull();
  });

  it('without an organization serves global only; without a school ignores school lists', () => {
    expect(servedList([org, school], { ...at, organizationId: null, schoolId: null })).toBeNull();
    expect(servedList([school, global], { ...at, schoolId: null })).toBe(global);
  });
});
