import { writeFile } from 'node:fs/promises';
import { pdfPagePng, pdfText } from '@qiraa/pdf-kit/testing';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { ENCOURAGEMENT, renderSessionSheet, type SheetInput } from './sessionSheet';
import { qrModules, sessionLink } from './sheetQrCode';

const input = (overrides: Partial<SheetInput> = {}): SheetInput => ({
  titleAr: 'نَبْنِي الْكَلِمَاتِ فِي السُّوقِ',
  introAr: 'نَجْمَعُ الْمَقَاطِعَ لِنَبْنِيَ كَلِمَةً، ثُمَّ نَخْتَارُ الْجَوَابَ.',
  themeLabelAr: 'السوق',
  targetMinutes: 20,
  fullNameAr: 'سارة أحمد',
  gender: 'female',
  items: [
    {
      id: 'itm_1',
      version: 1,
      stemAr: 'نَخْتَارُ الْكَلِمَةَ: كِ + تَا + بٌ',
      options: [
        { key: 'a', textAr: 'كِتَابٌ' },
        { key: 'b', textAr: 'كَاتِبٌ' },
      ],
      passageId: null,
    },
  ],
  link: sessionLink('sst_TESTSLOT12345', 'https://qiraa.example'),
  ...overrides,
});

/** The QR code as the page shows it: render the page, find the code in the pixels, decode it. */
async function decodeQr(pdf: Uint8Array): Promise<string | null> {
  const png = PNG.sync.read(await pdfPagePng(pdf, 1, 150));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

describe('a session sheet (one child, A4, right to left)', () => {
  // pdftotext hangs a colon or comma of a right-to-left line on the word after it: the words are compared.
  it('pdftotext finds the lines in logical order, the gendered encouragement, the digits and the link', async () => {
    const pdf = await renderSessionSheet(input());
    // Harakat compared apart: the bold face's ToUnicode may list a shadda and its vowel in the other order.
    const bare = (s: string) => s.replace(/[\u064b-\u065f\u0670]/g, '');
    const text = bare((await pdfText(pdf)).replace(/\s+/g, ' '));
    const order = [
      'نَبْنِي الْكَلِمَاتِ فِي السُّوقِ',
      'سارة أحمد',
      'المدة 20',
      'وَأَنْتِ قَادِرَةٌ عَلَى ذَلِكَ',
      'نَجْمَعُ الْمَقَاطِعَ',
      'كِتَابٌ',
      'https://qiraa.example/s/sst_TESTSLOT12345',
    ].map((s) => text.indexOf(bare(s)));
    expect(order.map((i) => i >= 0)).toEqual(order.map(() => true));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).not.toContain(bare('قَادِرٌ '));
    const neutral = bare((await pdfText(await renderSessionSheet(input({ gender: null })))).replace(/\s+/g, ' '));
    expect(neutral).toContain(bare(ENCOURAGEMENT.neutral.replace('!', '')));
  });

  it('the QR code on the rendered page decodes back to the child’s session link', async () => {
    const pdf = await renderSessionSheet(input());
    expect(await decodeQr(pdf)).toBe('https://qiraa.example/s/sst_TESTSLOT12345');
    expect(qrModules(sessionLink('sst_X')).size).toBeGreaterThan(20);
    // Leave the page for a person to look at (docs/sessions.md says what it shows).
    if (process.env.SESSIONS_PNG_OUT) await writeFile(process.env.SESSIONS_PNG_OUT, await pdfPagePng(pdf, 1, 100));
  });

  it('more items than one page holds go on to a second page; the QR code is on the last', async () => {
    const many = Array.from({ length: 14 }, (_, i) => ({ ...input().items[0]!, id: `itm_${i}` }));
    const pdf = await renderSessionSheet(input({ items: many }));
    const pages = (await pdfText(pdf)).split('\f').filter((p) => p.trim());
    expect(pages.length).toBe(2);
    const png = PNG.sync.read(await pdfPagePng(pdf, 2, 150));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(input().link);
  });
});
