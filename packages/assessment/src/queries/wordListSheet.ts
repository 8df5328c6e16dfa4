import { type LineStyle, lineWidth } from '@qiraa/pdf-kit';
import { ASCENT, addA4Page, BOX, DESCENT, drawCentred, drawRule, sheetDocument } from './sheetPage';

export interface WordListSheetInput {
  /** Shown at the top of every page (the skill's label). */
  readonly title: string;
  /** In reading order: the first word is the top right one. */
  readonly words: readonly string[];
  readonly wordsPerRow: number;
  readonly grade: number;
}

const TITLE_SIZE = 20;
/** Words as large as a first reader's book prints them; grades 3-4 read smaller type. */
const wordSizeFor = (grade: number) => (grade <= 2 ? 32 : 28);
/** Room left and right of a word inside its cell, so neighbouring words never touch. */
const CELL_PADDING = 10;
/** A row is this many times the word size high: the grey rule between rows sits in the gap. */
const ROW_HEIGHT = 2.4;
const TITLE_BLOCK = TITLE_SIZE * (ASCENT + DESCENT) + 22;

/** The word size: the grade's size, smaller only when the widest word would not fit its cell. */
function wordSize(words: readonly string[], cellWidth: number, grade: number, style: Omit<LineStyle, 'size'>) {
  const base = wordSizeFor(grade);
  const widest = Math.max(...words.map((w) => lineWidth(w, { ...style, size: base })));
  const room = cellWidth - 2 * CELL_PADDING;
  return widest <= room ? base : Math.floor(((base * room) / widest) * 10) / 10;
}

/**
 * The child's sheet of a word list: the words in rows of `wordsPerRow`, right to left, top to bottom, each
 * centred in an equal cell, the title on every page. Nothing else is drawn: no number of any kind (no page
 * numbers, no word numbers, no dates), so a child reads words only.
 */
export async function renderWordListSheet(input: WordListSheetInput): Promise<Uint8Array> {
  const { doc, fonts } = await sheetDocument([input.title, ...input.words]);
  const perRow = Math.max(1, Math.trunc(input.wordsPerRow));
  const cellWidth = BOX.width / perRow;
  const size =
    input.words.length === 0 ? wordSizeFor(input.grade) : wordSize(input.words, cellWidth, input.grade, { fonts });
  const style: LineStyle = { fonts, size };
  const rowHeight = size * ROW_HEIGHT;
  const rowsPerPage = Math.max(1, Math.floor((BOX.top - BOX.bottom - TITLE_BLOCK) / rowHeight));

  const rows: string[][] = [];
  for (let i = 0; i < input.words.length; i += perRow) rows.push(input.words.slice(i, i + perRow));
  if (rows.length === 0) rows.push([]);

  for (let first = 0; first < rows.length; first += rowsPerPage) {
    const page = addA4Page(doc);
    const titleBaseline = BOX.top - TITLE_SIZE * ASCENT;
    drawCentred(page, input.title, A4Centre, titleBaseline, { fonts, size: TITLE_SIZE, bold: true });
    const gridTop = BOX.top - TITLE_BLOCK;
    drawRule(page, gridTop + 8);
    const pageRows = rows.slice(first, first + rowsPerPage);
    pageRows.forEach((row, r) => {
      const rowTop = gridTop - r * rowHeight;
      // Centre the glyphs' own box (ascent above, descent below) in the row.
      const baseline = rowTop - (rowHeight - size * (ASCENT + DESCENT)) / 2 - size * ASCENT;
      row.forEach((word, c) => {
        const cellRight = BOX.right - c * cellWidth;
        drawCentred(page, word, cellRight - cellWidth / 2, baseline, style);
      });
      if (r < pageRows.length - 1) drawRule(page, rowTop - rowHeight);
    });
  }
  return doc.save();
}

const A4Centre = BOX.left + BOX.width / 2;
