import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { embedArabicFonts } from './fonts';
import { A4, MARGIN } from './page';
import { newPdfDocument } from './pdfLib';
import { drawRtlLine, fontPieces, wrapRtl } from './rtlLine';
import { pdfPagePng, pdfText, pdfWordsRightToLeft } from './testing/pdfText';
import { visualRuns } from './visualRuns';

async function sheet(lines: string[]): Promise<Uint8Array> {
  // As the service makes its documents (no creation date): two sheets a second apart are then byte-equal.
  const doc = await newPdfDocument();
  const fonts = await embedArabicFonts(doc);
  const page = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN - 20;
  for (const line of lines) {
    drawRtlLine(page, line, { right: A4.width - MARGIN, y }, { fonts, size: 18 });
    y -= 32;
  }
  return doc.save();
}

describe('Arabic A4 PDF (pdf-lib + fontkit + bidi)', () => {
  it('extracts Arabic lines in logical order, words and letters as written', async () => {
    const lines = ['ذَهَبَ الوَلَدُ إلى المَدْرَسَةِ', 'قرأت سارة القصة بصوت واضح'];
    const text = await pdfText(await sheet(lines));
    const extracted = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(extracted).toEqual(lines);
  });

  it('keeps numbers and Latin words left to right where the bidi algorithm puts them', async () => {
    const drawn = await pdfWordsRightToLeft(await sheet(['قرأ 25 كلمة', 'ملف PDF للطباعة']));
    expect(drawn).toEqual(['قرأ', '25', 'كلمة', 'ملف', 'PDF', 'للطباعة']);
  });

  it('draws brackets from the Latin font and the Arabic inside them from the Arabic font, in reading order', async () => {
    const doc = await PDFDocument.create();
    const fonts = await embedArabicFonts(doc);
    const style = { fonts, size: 18 };
    const pieces = visualRuns('قرأ (بصوت) عال').flatMap((run) => fontPieces(run, style));
    for (const piece of pieces) {
      expect(piece.font === fonts.arabic, piece.text).toBe(/[\u0600-\u06ff]/.test(piece.text));
    }
    const drawn = await pdfWordsRightToLeft(await sheet(['قرأ (بصوت) عال']));
    expect(drawn).toEqual(['قرأ', '(بصوت)', 'عال']);
  });

  it('draws glyphs for every character (no missing-glyph boxes): a rendered page has ink', async () => {
    const png = await pdfPagePng(await sheet(['ذَهَبَ الوَلَدُ إلى المَدْرَسَةِ']));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(1000);
  });

  it('wraps a long passage into lines that keep every word in order', async () => {
    const doc = await PDFDocument.create();
    const fonts = await embedArabicFonts(doc);
    const passage = 'كان يا ما كان في قديم الزمان ولد يحب القراءة كثيرا ويذهب كل يوم إلى المكتبة ليقرأ قصة جديدة';
    const lines = wrapRtl(passage, 200, { fonts, size: 18 });
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe(passage);
  });
});

describe('fonts parsed once per process', () => {
  const words = ['بَيْتٌ', 'شَجَرَةٌ', 'مَدْرَسَةٌ', 'سَمَكَةٌ', 'تُفاحَةٌ', 'نافِذَةٌ', 'عُصْفورٌ', 'حِصانٌ', 'مِفْتاحٌ', 'ضِفْدَعٌ'];
  const passage = ['ذَهَبَ سامي إلى الحَديقَةِ مَعَ أَبيهِ', 'جَلَسَ تَحْتَ الشَجَرَةِ وَقَرَأَ قِصَةً جَميلَةً'];
  const lines = (pdf: string) =>
    pdf
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);

  // fontkit keeps a glyph with the characters it was first shaped from; a cache shared across documents left
  // later documents' ToUnicode entries empty for forms an earlier one made first (their letters vanished).
  it('maps every glyph of a later document to its letters, as the first document does', async () => {
    for (let i = 0; i < 3; i++) await sheet(words);
    expect(lines(await pdfText(await sheet(passage)))).toEqual(passage);
  });

  it('writes the same bytes for the same sheet, first or after others', async () => {
    const first = await sheet(passage);
    await sheet(words);
    expect(Buffer.from(await sheet(passage)).equals(Buffer.from(first))).toBe(true);
  });

  it('embeds the Latin face only when a text needs it', async () => {
    const fontsOf = async (texts: string[]) => {
      const doc = await PDFDocument.create();
      const fonts = await embedArabicFonts(doc, texts);
      return new Set([fonts.arabic, fonts.arabicBold, fonts.latin]).size;
    };
    expect(await fontsOf(passage)).toBe(2);
    expect(await fontsOf([...passage, 'ملف PDF'])).toBe(3);
  });
});
