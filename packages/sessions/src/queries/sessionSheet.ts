import type { StudentItem } from '@qiraa/content';
import { type Gendered, inGender, type StudentGender } from '@qiraa/identity';
import {
  A4,
  drawRtlLine,
  embedArabicFonts,
  type LineStyle,
  lineWidth,
  MARGIN,
  newPdfDocument,
  pdfLib,
  wrapRtl,
} from '@qiraa/pdf-kit';
import { drawQr } from './sheetQrCode';

/** What one child's sheet shows; every string here is student-facing and passes the filter first. */
export interface SheetInput {
  titleAr: string;
  introAr: string;
  themeLabelAr: string;
  targetMinutes: number;
  fullNameAr: string;
  gender: StudentGender | null;
  items: StudentItem[];
  link: string;
}

/** The encouragement line, in the child's grammatical gender (neutral first person plural when unknown). */
export const ENCOURAGEMENT: Gendered = {
  female: 'نَتَدَرَّبُ مَعًا، وَأَنْتِ قَادِرَةٌ عَلَى ذَلِكَ!',
  male: 'نَتَدَرَّبُ مَعًا، وَأَنْتَ قَادِرٌ عَلَى ذَلِكَ!',
  neutral: 'نَتَدَرَّبُ مَعًا خُطْوَةً خُطْوَةً!',
};
export const OPTION_LETTERS = ['أ', 'ب', 'ج', 'د'];
export const SCAN_NOTE = 'نَمْسَحُ الرَّمْزَ لِنَفْتَحَ الْجَلْسَةَ عَلَى الْجِهَازِ:';

/** The lines a sheet draws, in reading order (the language filter checks exactly these). */
export function sheetLines(
  input: SheetInput,
): { text: string; style: 'title' | 'body' | 'item' | 'option' | 'link' }[] {
  const lines: { text: string; style: 'title' | 'body' | 'item' | 'option' | 'link' }[] = [
    { text: input.titleAr, style: 'title' },
    { text: `الاسم: ${input.fullNameAr}`, style: 'body' },
    { text: `الموضوع: ${input.themeLabelAr} - المدة: ${input.targetMinutes} دقيقة`, style: 'body' },
    { text: inGender(ENCOURAGEMENT, input.gender), style: 'body' },
    { text: input.introAr, style: 'body' },
  ];
  input.items.forEach((item, i) => {
    lines.push({ text: `${i + 1}. ${item.stemAr}`, style: 'item' });
    lines.push({
      text: item.options.map((o, k) => `(${OPTION_LETTERS[k] ?? o.key}) ${o.textAr}`).join('    '),
      style: 'option',
    });
  });
  lines.push({ text: SCAN_NOTE, style: 'body' });
  lines.push({ text: input.link, style: 'link' });
  return lines;
}

const SIZES = { title: 20, body: 13, item: 14, option: 13, link: 10 } as const;
const QR_SIZE = 96;

/**
 * One child's A4 right-to-left sheet: title, name, theme and length, the encouragement, the instruction, the
 * frozen items with their options (never the answer), and the QR code of the child's session link at the
 * bottom left with the link written under the scan note. More items than fit go on to a second page.
 */
export async function renderSessionSheet(input: SheetInput): Promise<Uint8Array> {
  const lines = sheetLines(input);
  const doc = await newPdfDocument();
  const fonts = await embedArabicFonts(
    doc,
    lines.map((l) => l.text),
  );
  const right = A4.width - MARGIN;
  const width = A4.width - 2 * MARGIN;
  let page = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN - SIZES.title;
  for (const line of lines) {
    const style: LineStyle = { fonts, size: SIZES[line.style], bold: line.style === 'title' || line.style === 'item' };
    if (line.style === 'link') {
      // A Latin URL: drawn left to right under the scan note, right-aligned like the rest.
      drawRtlLine(page, line.text, { right, y }, style);
      y -= style.size * 1.9;
      continue;
    }
    // Most lines fit: one measure; only a long one is wrapped (the wrap measures every candidate line).
    const wrappedLines = lineWidth(line.text, style) <= width ? [line.text] : wrapRtl(line.text, width, style);
    for (const wrapped of wrappedLines) {
      if (y < MARGIN + QR_SIZE + 60) {
        page = doc.addPage([A4.width, A4.height]);
        y = A4.height - MARGIN - style.size;
      }
      drawRtlLine(page, wrapped, { right, y }, style);
      y -= style.size * (line.style === 'title' ? 2.2 : 1.9);
    }
    if (line.style === 'title') {
      page.drawLine({
        start: { x: MARGIN, y: y + style.size * 0.9 },
        end: { x: right, y: y + style.size * 0.9 },
        thickness: 0.75,
        color: pdfLib().rgb(0.78, 0.78, 0.78),
      });
    }
  }
  drawQr(page, input.link, { x: MARGIN, y: MARGIN, size: QR_SIZE });
  return doc.save({ useObjectStreams: true });
}
