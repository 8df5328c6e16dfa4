import {
  A4,
  type ArabicFonts,
  drawRtlLine,
  embedArabicFonts,
  type LineStyle,
  lineWidth,
  MARGIN,
  newPdfDocument,
  pdfLib,
} from '@qiraa/pdf-kit';
import type { PDFDocument, PDFPage } from 'pdf-lib';

/** The printable box of an A4 sheet inside the 2 cm margins. */
export const BOX = {
  left: MARGIN,
  right: A4.width - MARGIN,
  top: A4.height - MARGIN,
  bottom: MARGIN,
  width: A4.width - 2 * MARGIN,
} as const;

const RULE_GREY = [0.78, 0.78, 0.78] as const;

/**
 * A new PDF with the Arabic fonts embedded, and no metadata (no dates, nothing a reader could print).
 * `texts`: every text the sheet draws, so only the fonts they need are embedded.
 */
export async function sheetDocument(texts: readonly string[]): Promise<{ doc: PDFDocument; fonts: ArabicFonts }> {
  const doc = await newPdfDocument();
  return { doc, fonts: await embedArabicFonts(doc, texts) };
}

export const addA4Page = (doc: PDFDocument): PDFPage => doc.addPage([A4.width, A4.height]);

/** One right-to-left line centred on `centerX`. */
export function drawCentred(page: PDFPage, text: string, centerX: number, y: number, style: LineStyle): void {
  drawRtlLine(page, text, { right: centerX + lineWidth(text, style) / 2, y }, style);
}

/** A thin grey rule across the printable box: it guides the eye without being read. */
export function drawRule(page: PDFPage, y: number): void {
  page.drawLine({
    start: { x: BOX.left, y },
    end: { x: BOX.right, y },
    thickness: 0.75,
    color: pdfLib().rgb(...RULE_GREY),
  });
}

/**
 * Room a line of Naskh needs above and below its baseline, as a share of the font size: the tall letters
 * (ل ا ك) with a fatha or shadda on top, and the descenders (ي ن ع) with a kasra under them.
 */
export const ASCENT = 1.15;
export const DESCENT = 0.65;
