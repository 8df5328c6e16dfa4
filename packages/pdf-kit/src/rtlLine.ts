import type { PDFFont, PDFPage } from 'pdf-lib';
import type { ArabicFonts } from './fonts';
import { type VisualRun, visualRuns } from './visualRuns';

export interface LineStyle {
  readonly fonts: ArabicFonts;
  readonly size: number;
  readonly bold?: boolean;
}

interface PlacedRun {
  readonly text: string;
  readonly font: PDFFont;
  readonly width: number;
  /** Space left empty before (left of) and after (right of) the glyphs. */
  readonly padLeft: number;
  readonly padRight: number;
}

const charSets = new WeakMap<PDFFont, Set<number>>();
function hasGlyph(font: PDFFont, ch: string): boolean {
  let set = charSets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    charSets.set(font, set);
  }
  return set.has(ch.codePointAt(0)!);
}

const ARABIC = /[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufefc]/;

/**
 * Splits a run where the font must change (Noto Naskh has no Latin letters and no brackets), keeping
 * visual order: the pieces of a right-to-left run go right to left, and a piece without Arabic, which
 * fontkit lays out left to right, is handed over reversed.
 */
export function fontPieces(run: VisualRun, style: LineStyle): { text: string; font: PDFFont }[] {
  const arabic = style.bold ? style.fonts.arabicBold : style.fonts.arabic;
  const pieces: { text: string; font: PDFFont }[] = [];
  for (const ch of run.text) {
    // Spaces stay with the piece they are in, so a word break never changes the font.
    const font = ch === ' ' || hasGlyph(arabic, ch) ? arabic : style.fonts.latin;
    const last = pieces[pieces.length - 1];
    if (last && (last.font === font || ch === ' ')) last.text += ch;
    else pieces.push({ text: ch, font });
  }
  if (!run.rtl) return pieces;
  return pieces
    .reverse()
    .map((p) => (ARABIC.test(p.text) ? p : { text: [...p.text].reverse().join(''), font: p.font }));
}

/**
 * Spaces at the edges of a piece are drawn as empty room, not as space glyphs: text extractors (pdftotext)
 * find a word break between two runs from the gap, and miss one carried by a space glyph at a run's edge.
 */
function place(run: VisualRun, style: LineStyle): PlacedRun[] {
  const space = style.fonts.arabic.widthOfTextAtSize(' ', style.size);
  return fontPieces(run, style).map(({ text: raw, font }) => {
    const text = raw.trim();
    const leading = raw.length - raw.trimStart().length;
    const trailing = raw.length - raw.trimEnd().length;
    // A right-to-left Arabic piece is handed over in logical order: its logical start is its right edge.
    const [left, right] = run.rtl && ARABIC.test(text) ? [trailing, leading] : [leading, trailing];
    const glyphs = text ? font.widthOfTextAtSize(text, style.size) : 0;
    return { text, font, padLeft: left * space, padRight: right * space, width: (left + right) * space + glyphs };
  });
}

/** Width of one line as it will be drawn. */
export function lineWidth(line: string, style: LineStyle): number {
  return visualRuns(line)
    .flatMap((run) => place(run, style))
    .reduce((sum, piece) => sum + piece.width, 0);
}

/**
 * Draws one line of a right-to-left paragraph ending at `right` (its right edge), at baseline `y`: runs in
 * visual order, Arabic shaped by fontkit, digits and Latin left to right where the bidi algorithm puts them.
 */
export function drawRtlLine(page: PDFPage, line: string, at: { right: number; y: number }, style: LineStyle): number {
  const placed = visualRuns(line).flatMap((run) => place(run, style));
  const width = placed.reduce((sum, run) => sum + run.width, 0);
  let x = at.right - width;
  for (const run of placed) {
    if (run.text) page.drawText(run.text, { x: x + run.padLeft, y: at.y, size: style.size, font: run.font });
    x += run.width;
  }
  return width;
}

/** Greedy word wrap in logical order: the lines of `text` that fit in `maxWidth`. */
export function wrapRtl(text: string, maxWidth: number, style: LineStyle): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && lineWidth(candidate, style) > maxWidth) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current) lines.push(current);
  return lines;
}
