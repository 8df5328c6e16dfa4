import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PACK_DIR } from './commands/contentImport';

/** The fields of the pack a child reads. */
const CHILD_FACING = new Set([
  'stem_ar',
  'hint_ar',
  'explanation_ar',
  'prompt_ar',
  'reading_note_ar',
  'title_ar',
  'body_ar',
  'text_ar',
]);

/** The instruction fields (options and passages hold words and stories, not instructions). */
const INSTRUCTIONS = new Set(['stem_ar', 'hint_ar', 'explanation_ar', 'prompt_ar', 'reading_note_ar']);

const HARAKAT = /[\u064B-\u0652\u0670\u0640]/gu;
/**
 * Masculine singular imperatives, without harakat (and with و or ف in front): the pack speaks in the first
 * person plural instead (نَقْرَأُ، نَبْحَثُ), one wording for every child.
 */
const IMPERATIVES = new Set(
  'اقرأ اقرأها اقراها انظر ابحث اختر قل قلها قلهما قف استمع انتبه احذف صل صلها كرر كررها جرب فكر ارجع افحص ركب صفق توقف'.split(
    ' ',
  ),
);

/** Every way the text addresses one child as a boy only, by name of the check. */
function masculineAddress(text: string, key: string): string[] {
  const found: string[] = [];
  for (const word of text.split(/[^\u0621-\u064A\u064B-\u0652\u0670\u0640]+/u)) {
    const bare = word.replace(HARAKAT, '');
    if (IMPERATIVES.has(bare) || IMPERATIVES.has(bare.replace(/^[وف]/u, ''))) found.push(`imperative ${word}`);
    if (bare === 'أنت' || bare === 'أمامك') found.push(`you ${word}`);
    // In an instruction, a vowelled -كَ after a vowelled letter is "your" (m.) (أَمَامَكَ); ذَلِكَ is not.
    if (INSTRUCTIONS.has(key) && /[\u064B-\u0652]كَ$/u.test(word) && !bare.endsWith('ذلك')) {
      found.push(`suffix ${word}`);
    }
  }
  return found;
}

async function childFacingStrings(): Promise<{ file: string; key: string; text: string }[]> {
  const out: { file: string; key: string; text: string }[] = [];
  const walk = (file: string, value: unknown, key: string) => {
    if (Array.isArray(value)) for (const v of value) walk(file, v, key);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(file, v, k);
    else if (typeof value === 'string' && CHILD_FACING.has(key)) out.push({ file, key, text: value });
  };
  for (const file of (await readdir(DEMO_PACK_DIR)).filter((f) => f.endsWith('.json'))) {
    walk(file, JSON.parse(await readFile(path.join(DEMO_PACK_DIR, file), 'utf8')), '');
  }
  return out;
}

describe('the demo content pack addresses every child alike', () => {
  it('has child-facing strings to check', async () => {
    expect((await childFacingStrings()).length).toBeGreaterThan(300);
  });

  it('holds no wording that agrees with a boy only', async () => {
    const found: string[] = [];
    for (const { file, key, text } of await childFacingStrings()) {
      for (const hit of masculineAddress(text, key)) found.push(`${file} ${key} (${hit}): ${text}`);
    }
    expect(found).toEqual([]);
  });

  it('the check catches the masculine forms the pack used to have', () => {
    for (const text of [
      'وَاقْرَأِ الْجُمْلَةَ الَّتِي حَوْلَهَا.',
      'اقْرَأِ الْكَلِمَاتِ، وَانْتَبِهْ إِلَى الْحَرْفِ الَّذِي يَمُدُّ الصَّوْتَ.',
      'اِخْتَرِ الْكَلِمَةَ الَّتِي تُشْبِهُ هَذِهِ الْكَلِمَةَ تَمَامًا: بَابٌ',
      'ابحثْ عن الحروفِ الأصليةِ الثلاثةِ في الكلمةِ.',
      'الْآنَ نَقْرَأُ الْحَرْفَ الَّذِي أَمَامَكَ بِالطَّرِيقَةِ نَفْسِهَا.',
      'وَالْآنَ نُجَرِّبُ مَعَ الْمَقَاطِعِ الَّتِي أَمَامَكَ.',
      'قِفْ عَلَى آخِرِ الْكَلِمَةِ',
      'جرّبْ أنْ تقولَ النصَّ في جملةٍ واحدةٍ',
      'قِفْ عَلَى آخِرِ الْكَلِمَةِ: هَلْ تَسْمَعُ هَاءً أَمْ تَاءً؟',
    ]) {
      expect(masculineAddress(text, 'hint_ar'), text).not.toEqual([]);
    }
  });
});
