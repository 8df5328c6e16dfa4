import { readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

const fontFile = (name: string) => new URL(`../fonts/${name}`, import.meta.url);

/** Noto Naskh Arabic (regular and bold) with Noto Sans for Latin runs; OFL 1.1, see fonts/README.md. */
export interface ArabicFonts {
  readonly arabic: PDFFont;
  readonly arabicBold: PDFFont;
  readonly latin: PDFFont;
}

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type ParsedFont = ReturnType<Fontkit['create']>;

/**
 * The three fonts, read and parsed once per process: pdf-lib parses a font's bytes again for every document
 * it is embedded in, and that parse was most of a sheet's time.
 */
let parsed: Promise<Map<Uint8Array, ParsedFont>> | undefined;
const parsedFonts = () =>
  (parsed ??= Promise.all(
    ['NotoNaskhArabic-Regular.ttf', 'NotoNaskhArabic-Bold.ttf', 'NotoSans-Regular.ttf'].map((f) =>
      readFile(fontFile(f)),
    ),
  ).then((files) => new Map(files.map((bytes) => [bytes as Uint8Array, fontkit.create(bytes)]))));

/**
 * A document's own view of a parsed font: the parsed tables are shared (read only), the glyph objects are
 * not. fontkit caches a glyph with the characters it was first shaped from, and pdf-lib writes those into
 * the ToUnicode map: glyphs cached by another document left a sheet's text unextractable (an empty map for
 * a final or medial form). With its own glyph cache (and so its own layout engine, made on first use) a
 * document is encoded exactly as with a fresh parse.
 */
function documentFont(font: ParsedFont): ParsedFont {
  const view = Object.create(font) as ParsedFont & { _glyphs: Record<number, unknown> };
  view._glyphs = {};
  // A line is measured, then drawn (and a word list measures every word to size them): shape each text once.
  const runs = new Map<string, ReturnType<ParsedFont['layout']>>();
  const layout = font.layout;
  view.layout = function (this: ParsedFont, text: string, ...rest: unknown[]) {
    if (rest.length > 1) return layout.call(this, text, ...(rest as []));
    const key = `${JSON.stringify(rest[0] ?? null)}\u0000${text}`;
    let run = runs.get(key);
    if (!run) {
      run = layout.call(this, text, ...(rest as []));
      runs.set(key, run);
    }
    return run;
  } as ParsedFont['layout'];
  return view;
}

const NOT_DRAWN = new Set([' ', '\n', '\r']);

/** The code points the Arabic faces (regular and bold both) have glyphs for, computed once. */
let arabicCoverage: Set<number> | undefined;
function coveredByArabic(fonts: Map<Uint8Array, ParsedFont>): Set<number> {
  if (!arabicCoverage) {
    const [regular, bold] = [...fonts.values()].map((f) => new Set(documentFont(f).characterSet));
    arabicCoverage = new Set([...regular!].filter((c) => bold!.has(c)));
  }
  return arabicCoverage;
}

/**
 * Embeds the fonts (subset: only the glyphs a document uses end up in it). Given every text the document
 * will draw, the Latin face is embedded only when one of them has a character the Arabic faces lack (the
 * only case a line picks it); otherwise `latin` is the Arabic face and the document carries two fonts.
 */
export async function embedArabicFonts(doc: PDFDocument, texts?: readonly string[]): Promise<ArabicFonts> {
  const fonts = await parsedFonts();
  // pdf-lib asks its fontkit to parse the bytes it is given: answer with a view of the font parsed once.
  doc.registerFontkit({
    create: (bytes) => {
      const font = fonts.get(bytes as Uint8Array);
      return font ? documentFont(font) : fontkit.create(bytes);
    },
  } as Fontkit);
  const [arabicBytes, arabicBoldBytes, latinBytes] = [...fonts.keys()];
  const arabic = await doc.embedFont(arabicBytes!, { subset: true });
  const arabicBold = await doc.embedFont(arabicBoldBytes!, { subset: true });
  const covered = coveredByArabic(fonts);
  // A space never picks a face (it stays in its piece) and a line break is never drawn (it splits lines).
  const needsLatin =
    !texts || texts.some((text) => [...text].some((ch) => !NOT_DRAWN.has(ch) && !covered.has(ch.codePointAt(0)!)));
  return { arabic, arabicBold, latin: needsLatin ? await doc.embedFont(latinBytes!, { subset: true }) : arabic };
}
