import { drawRtlLine, type LineStyle, wrapRtl } from '@qiraa/pdf-kit';
import type { PDFPage } from 'pdf-lib';
import { ASCENT, addA4Page, BOX, DESCENT, drawCentred, drawRule, sheetDocument } from './sheetPage';

export interface ReadingSheetInput {
  readonly title: string;
  /** The passage; a line break starts a new paragraph. */
  readonly body: string;
  readonly grade: number;
  /** Printed small at the top so the teacher keeps the sheets apart; left out when null. */
  readonly firstName?: string | null;
}

const NAME_SIZE = 14;
const NAME_LABEL = 'الاسم: ';
const TITLE_SIZE = 24;
/** Passage type by grade: large for first readers, book size by grade 4. */
const bodySizeFor = (grade: number) => (grade <= 1 ? 24 : grade === 2 ? 22 : grade === 3 ? 20 : 18);
/** Line pitch as a share of the size: harakat above and below need more room than plain text. */
const LINE_PITCH = 2.1;
const PARAGRAPH_GAP = 0.6;

/**
 * A passage sheet for oral reading: the title, then the passage right to left, wrapped to the printable
 * width at the grade's size, onto as many A4 pages as it needs. No QR code, no page numbers.
 */
export async function renderReadingSheet(input: ReadingSheetInput): Promise<Uint8Array> {
  const { doc, fonts } = await sheetDocument([input.title, input.body, NAME_LABEL, input.firstName ?? '']);
  const body: LineStyle = { fonts, size: bodySizeFor(input.grade) };
  const pitch = body.size * LINE_PITCH;
  // The glyphs' own box (ascent above the baseline, descent below) sits in the middle of the line pitch.
  const baselineBelowTop = (pitch - body.size * (ASCENT + DESCENT)) / 2 + body.size * ASCENT;
  let page: PDFPage = addA4Page(doc);
  let y = BOX.top;

  if (input.firstName) {
    y -= NAME_SIZE * ASCENT;
    drawRtlLine(page, `${NAME_LABEL}${input.firstName}`, { right: BOX.right, y }, { fonts, size: NAME_SIZE });
    y -= NAME_SIZE * DESCENT + 10;
  }
  y -= TITLE_SIZE * ASCENT;
  drawCentred(page, input.title, BOX.left + BOX.width / 2, y, { fonts, size: TITLE_SIZE, bold: true });
  y -= TITLE_SIZE * DESCENT + 12;
  drawRule(page, y);
  y -= 14;

  const paragraphs = input.body
    .split(/\n+/)
    .map((p) => p.trim())
    .filter(Boolean);
  paragraphs.forEach((paragraph, p) => {
    if (p > 0) y -= body.size * PARAGRAPH_GAP;
    for (const line of wrapRtl(paragraph, BOX.width, body)) {
      if (y - pitch < BOX.bottom) {
        page = addA4Page(doc);
        y = BOX.top;
      }
      drawRtlLine(page, line, { right: BOX.right, y: y - baselineBelowTop }, body);
      y -= pitch;
    }
  });
  return doc.save();
}
