import { createLanguageSafetyFilter } from '@qiraa/language-safety';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  AllowListError,
  ChildHandle,
  DateOnly,
  FirstName,
  Label,
  ParentObject,
  parentSafe,
  SafeStopCode,
} from './allowList';

const filter = createLanguageSafetyFilter(1, [
  {
    ruleId: 'LS-NUM-001',
    tier: 'parent',
    kind: 'pattern',
    matchText: null,
    matchRegex: '[0-9]+',
    caseSensitive: false,
    replacement: null,
    example: 'قرأ 45 كلمة',
    gloss: 'digits',
  },
]);

const Schema = ParentObject({
  childId: ChildHandle(),
  firstName: FirstName(),
  on: DateOnly('day'),
  items: Type.Array(ParentObject({ label: Label('a label') })),
  note: Type.Union([Label('optional'), Type.Null()]),
});

const good = { childId: 7, firstName: 'سارة', on: '2026-09-01', items: [{ label: 'نموّ مستمر' }], note: null };

describe('parentSafe', () => {
  it('passes allow-listed leaves through', () => {
    expect(parentSafe(Schema, good, filter)).toEqual({ value: good, rewritten: [] });
  });

  it('rewrites a label the parent tier refuses, and says where and which rule', () => {
    const out = parentSafe(Schema, { ...good, items: [{ label: 'قرأ 45 كلمة' }] }, filter);
    expect(out.value.items[0]!.label).toBe('قرأ كلمة');
    expect(out.rewritten).toEqual([{ path: '/items/0/label', ruleIds: ['LS-NUM-001'] }]);
  });

  it('refuses a key that is not on the list, a number where a label goes and a date of another shape', () => {
    expect(() => parentSafe(Schema, { ...good, score: 3 }, filter)).toThrow(AllowListError);
    expect(() => parentSafe(Schema, { ...good, firstName: 3 }, filter)).toThrow(AllowListError);
    expect(() => parentSafe(Schema, { ...good, on: '2026-09-01T00:00:00Z' }, filter)).toThrow(AllowListError);
    expect(() => parentSafe(Schema, { ...good, on: 'أمس' }, filter)).toThrow(AllowListError);
  });

  it('refuses a leaf whose schema is not tagged for parents', () => {
    const Loose = ParentObject({ code: Type.String() });
    expect(() => parentSafe(Loose, { code: 'beginning' }, filter)).toThrow(AllowListError);
  });

  it('passes a listed code unfiltered and refuses any other value in its place', () => {
    const Halt = ParentObject({ code: Type.Union([SafeStopCode(['GL-005'], 'the halt'), Type.Null()]) });
    const digits = createLanguageSafetyFilter(1, [
      { ...filter.rules[0]!, ruleId: 'LS-TOK-002', matchRegex: 'GL-[0-9]+' },
    ]);
    expect(parentSafe(Halt, { code: 'GL-005' }, digits)).toEqual({ value: { code: 'GL-005' }, rewritten: [] });
    expect(parentSafe(Halt, { code: null }, digits).value).toEqual({ code: null });
    expect(() => parentSafe(Halt, { code: 'GL-006' }, digits)).toThrow(AllowListError);
    expect(() => parentSafe(Halt, { code: 5 }, digits)).toThrow(AllowListError);
  });
});
