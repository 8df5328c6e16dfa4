import { describe, expect, it } from 'vitest';
import type { ImportBodyInput } from '../schemas/importBody';
import { importBodyProblem } from './bodyRules';

const SOURCE = { origin: 'licensed', reference: 'دار النشر' } as const;
const SIGNOFF = { agreementCode: 'A-1', signedByName: 'مراجع', signedAt: '2026-01-01T00:00:00Z' };
const item = { external_id: 'i1' } as unknown as NonNullable<ImportBodyInput['items']>[number];
const reasonOf = (body: object) => importBodyProblem(body as ImportBodyInput)?.reason ?? null;

describe('importBodyProblem', () => {
  it('accepts each kind with its own payload', () => {
    expect(reasonOf({ sourceDeclared: SOURCE, agreementSignoff: SIGNOFF, items: [item] })).toBeNull();
    expect(
      reasonOf({ contentKind: 'content_bundle', sourceDeclared: SOURCE, agreementSignoff: SIGNOFF, passages: [{}] }),
    ).toBeNull();
    expect(reasonOf({ contentKind: 'word_list', wordLists: [{}] })).toBeNull();
    expect(reasonOf({ contentKind: 'scaffold_prompt', sourceDeclared: null, scaffoldPrompts: [{}] })).toBeNull();
  });

  it('names the first broken rule', () => {
    expect(reasonOf({ items: [item] })).toBe('source_declared_required');
    expect(reasonOf({ sourceDeclared: SOURCE, items: [item] })).toBe('agreement_signoff_required');
    expect(reasonOf({ sourceDeclared: SOURCE, agreementSignoff: SIGNOFF, form: {}, items: [item] })).toBe(
      'field_not_allowed_for_kind',
    );
    expect(
      reasonOf({ contentKind: 'screening_form', sourceDeclared: SOURCE, agreementSignoff: SIGNOFF, items: [item] }),
    ).toBe('form_required');
    expect(
      reasonOf({
        contentKind: 'screening_form',
        sourceDeclared: SOURCE,
        agreementSignoff: SIGNOFF,
        form: {},
        passages: [{}],
      }),
    ).toBe('empty_payload');
    expect(reasonOf({ contentKind: 'word_list', wordLists: [] })).toBe('empty_payload');
  });
});
