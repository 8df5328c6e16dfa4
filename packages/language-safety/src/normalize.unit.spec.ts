import { describe, expect, it } from 'vitest';
import { normalizeArabic, normalizeWithMap } from './normalize';

describe('Arabic normalization', () => {
  it.each([
    ['أ', 'أحمد', 'احمد'],
    ['إ', 'إملاء', 'املاء'],
    ['آ', 'آخر', 'اخر'],
    ['ٱ', 'ٱلقراءة', 'القراءه'],
  ])('folds alef with hamza or madda, and alef wasla (%s), to bare alef', (_form, input, expected) => {
    expect(normalizeArabic(input)).toBe(expected);
  });

  it('folds taa marbuta to haa', () => {
    expect(normalizeArabic('ضعيفة')).toBe('ضعيفه');
    expect(normalizeArabic('مدرسة جميلة')).toBe('مدرسه جميله');
  });

  it('folds alef maqsura to yaa', () => {
    expect(normalizeArabic('مستوى')).toBe('مستوي');
    expect(normalizeArabic('على')).toBe('علي');
  });

  const harakat: Array<[string, string]> = [
    ['fathatan U+064B', '\u064B'],
    ['dammatan U+064C', '\u064C'],
    ['kasratan U+064D', '\u064D'],
    ['fatha U+064E', '\u064E'],
    ['damma U+064F', '\u064F'],
    ['kasra U+0650', '\u0650'],
    ['shadda U+0651', '\u0651'],
    ['sukun U+0652', '\u0652'],
    ['superscript alef U+0670', '\u0670'],
    ['maddah above U+0653', '\u0653'],
    ['hamza above U+0654', '\u0654'],
  ];
  it.each(harakat)('removes %s', (_name, mark) => {
    expect(normalizeArabic(`ض${mark}عيف`)).toBe('ضعيف');
  });

  it('removes every diacritic of a fully vowelled word at once', () => {
    expect(normalizeArabic('ضَعِيفٌ')).toBe('ضعيف');
    expect(normalizeArabic('هٰذا')).toBe('هذا');
  });

  it('folds a decomposed alef with hamza (alef + U+0654) like the precomposed one', () => {
    expect(normalizeArabic('\u0627\u0654حمد')).toBe(normalizeArabic('أحمد'));
  });

  it('removes tatweel', () => {
    expect(normalizeArabic('ضعـــيف')).toBe('ضعيف');
  });

  it.each([
    ['zero-width non-joiner', '\u200C'],
    ['zero-width joiner', '\u200D'],
    ['zero-width space', '\u200B'],
    ['right-to-left mark', '\u200F'],
    ['Arabic letter mark', '\u061C'],
    ['soft hyphen', '\u00AD'],
    ['byte-order mark', '\uFEFF'],
  ])('removes an invisible %s inside a word', (_name, mark) => {
    expect(normalizeArabic(`ضع${mark}يف`)).toBe('ضعيف');
  });

  it('lowercases Latin in the folded text and keeps case in the cased text', () => {
    const n = normalizeWithMap('Weak DATA_INCOMPLETE');
    expect(n.folded).toBe('weak data_incomplete');
    expect(n.cased).toBe('Weak DATA_INCOMPLETE');
  });

  it('folds typographic apostrophes', () => {
    expect(normalizeArabic('can’t')).toBe("can't");
  });

  it('keeps digits, punctuation, spaces and other letters as they are', () => {
    expect(normalizeArabic('قرأ ٤٥ كلمة، 12٪!')).toBe('قرا ٤٥ كلمه، 12٪!');
  });

  it('maps every normalized character back to its index in the original text', () => {
    const original = 'وَضَعِيفـٌ';
    const n = normalizeWithMap(original);
    expect(n.folded).toBe('وضعيف');
    expect(n.map).toEqual([0, 2, 4, 6, 7]);
    expect([...n.folded].every((ch, i) => normalizeArabic(original[n.map[i]!]!) === ch)).toBe(true);
    expect(n.originalLength).toBe(original.length);
  });

  it('is idempotent', () => {
    const once = normalizeArabic('إنَّ الطالبـةَ متأخّرةٌ على مستوى الصف');
    expect(normalizeArabic(once)).toBe(once);
  });
});
