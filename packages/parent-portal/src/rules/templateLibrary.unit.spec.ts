import { describe, expect, it } from 'vitest';
import { CURRENT_TEMPLATE_LIBRARY, MAX_SUGGESTIONS, pickTemplates, templateLibraryOf } from './templateLibrary';

const ids = (picked: ReturnType<typeof pickTemplates>) => picked.map((p) => p.template.id);

describe('pickTemplates', () => {
  it('gives one template per decided domain, the earliest status first, catalog order on ties', () => {
    expect(
      ids(
        pickTemplates([
          { macroDomainId: 'phonological_awareness', status: 'strong' },
          { macroDomainId: 'decoding', status: 'developing' },
          { macroDomainId: 'fluency', status: 'beginning' },
          { macroDomainId: 'comprehension', status: 'developing' },
        ]),
      ),
    ).toEqual(['HT-FLU-01', 'HT-DEC-01', 'HT-COM-01', 'HT-PA-02']);
  });

  it('never gives more than five', () => {
    const all = ['phonological_awareness', 'decoding', 'fluency', 'comprehension', 'spelling', 'morphology'];
    const picked = pickTemplates(all.map((macroDomainId) => ({ macroDomainId, status: 'on_track' as const })));
    expect(picked).toHaveLength(MAX_SUGGESTIONS);
    expect(ids(picked)).not.toContain('HT-MOR-02');
  });

  it('gives nothing for a domain the library has no template for', () => {
    expect(pickTemplates([{ macroDomainId: 'unknown_domain', status: 'beginning' }])).toEqual([]);
  });
});

describe('the library file', () => {
  it('covers every macro-domain and status in v1', () => {
    for (const domain of ['phonological_awareness', 'decoding', 'fluency', 'comprehension', 'spelling', 'morphology']) {
      for (const status of ['beginning', 'developing', 'on_track', 'strong'] as const) {
        expect(
          CURRENT_TEMPLATE_LIBRARY.templates.some((t) => t.macroDomainId === domain && t.statuses.includes(status)),
          `${domain} ${status}`,
        ).toBe(true);
      }
    }
  });

  it('refuses a malformed library and a duplicate id', () => {
    expect(() => templateLibraryOf({ version: '2', note: '', templates: [{ id: 'x' }] })).toThrow(/template library/);
    const t = CURRENT_TEMPLATE_LIBRARY.templates[0]!;
    expect(() => templateLibraryOf({ version: '2', note: '', templates: [t, t] })).toThrow(/duplicate/);
  });
});
