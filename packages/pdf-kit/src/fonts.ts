import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { loadPdfLib } from './pdfLib';

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
/** fontkit, loaded with the first document's fonts (pdfLib.ts says why). */
let fontkit: Fontkit | undefined;
const parsedFonts = () =>
  (parsed ??= Promise.all([
    import('@pdf-lib/fontkit'),
    ...['NotoNaskhArabic-Regular.ttf', 'NotoNaskhArabic-Bold.ttf', 'NotoSans-Regular.ttf'].map((f) =>
      readFile(fontFile(f)),
    ),
  ]).then(([loaded, ...files]) => {
    const kit = (loaded as { default: Fontkit }).default;
    fontkit = kit;
    return new Map(files.map((bytes) => [bytes as Uint8Array, kit.create(bytes as Uint8Array)]));
  }));

type GlyphRun = ReturnType<ParsedFont['layout']>;
type Glyph = GlyphRun['glyphs'][number];

/**
 * Shaped runs shared by every document of the process, per face: a class's sheets draw the same title,
 * instruction, items and options, and shaping (GSUB/GPOS lookups) was the largest part of a sheet. Only the
 * glyph ids and the characters each came from are kept; bounded, emptied when full (a batch refills it).
 */
const SHAPED_LIMIT = 4000;
const shaped = new Map<ParsedFont, { shaper: ParsedFont; runs: Map<string, GlyphRun> }>();
function shapedRun(font: ParsedFont, text: string, features: unknown): GlyphRun {
  let face = shaped.get(font);
  if (!face) {
    // Shaped through a view of its own, so no document's glyph objects are made or kept here.
    face = { shaper: withOwnGlyphs(font), runs: new Map() };
    shaped.set(font, face);
  }
  const key = `${JSON.stringify(features ?? null)}\u0000${text}`;
  let run = face.runs.get(key);
  if (!run) {
    if (face.runs.size >= SHAPED_LIMIT) face.runs.clear();
    run = face.shaper.layout(text, features as never);
    face.runs.set(key, run);
  }
  return run;
}

function withOwnGlyphs(font: ParsedFont): ParsedFont {
  const view = Object.create(font) as ParsedFont & { _glyphs: Record<number, unknown> };
  view._glyphs = {};
  return view;
}

/**
 * A document's own view of a parsed font: the parsed tables are shared (read only), the glyph objects are
 * not. fontkit caches a glyph with the characters it was first shaped from, and pdf-lib writes those into
 * the ToUnicode map: glyphs cached by another document left a sheet's text unextractable (an empty map for
 * a final or medial form). So a shared shaped run is handed to a document with the document's own glyphs
 * (getGlyph with the ids and characters the run holds, as fontkit's layout itself ends): the document is
 * encoded exactly as with a fresh parse, without shaping the same text again.
 */
function documentFont(font: ParsedFont): ParsedFont {
  const view = withOwnGlyphs(font);
  view.layout = function (this: ParsedFont, text: string, ...rest: unknown[]) {
    if (rest.length > 1) return font.layout.call(this, text, ...(rest as []));
    const run = shapedRun(font, text, rest[0]);
    const own = Object.create(run) as GlyphRun & { glyphs: Glyph[] };
    own.glyphs = run.glyphs.map((g) => {
      const glyph = this.getGlyph(g.id, g.codePoints) as Glyph & { _metrics?: unknown };
      // Advance and bearings depend on the glyph id alone; fontkit would decode the outline again for them.
      glyph._metrics ??= (g as Glyph & { _metrics?: unknown })._metrics;
      return glyph;
    });
    return own;
  } as ParsedFont['layout'];
  view.createSubset = function (this: ParsedFont) {
    return sharedEncoding(font, font.createSubset.call(this));
  };
  return view;
}

type Subset = ReturnType<ParsedFont['createSubset']>;

/**
 * Encoded subsets per face, by their glyph ids in subset order (all a TrueType subset's bytes depend on):
 * the sheets of a class use the same glyphs in the same order in the title and items face, and encoding a
 * subset (decoding and re-writing each glyph, and the font's tables) was the largest part of a sheet left.
 * Bounded, emptied when full.
 */
const ENCODED_LIMIT = 200;
const encodedSubsets = new Map<ParsedFont, Map<string, Uint8Array>>();
function sharedEncoding(font: ParsedFont, subset: Subset): Subset {
  const encodeStream = subset.encodeStream.bind(subset);
  subset.encodeStream = () => {
    let encoded = encodedSubsets.get(font);
    if (!encoded) {
      encoded = new Map();
      encodedSubsets.set(font, encoded);
    }
    const key = (subset as Subset & { glyphs: number[] }).glyphs.join(',');
    const hit = encoded.get(key);
    if (hit) return Readable.from([hit]) as unknown as ReturnType<Subset['encodeStream']>;
    const stream = encodeStream();
    const parts: Uint8Array[] = [];
    stream.on('data', (bytes: Uint8Array) => parts.push(bytes));
    stream.on('end', () => {
      if (encoded.size >= ENCODED_LIMIT) encoded.clear();
      encoded.set(key, Buffer.concat(parts));
    });
    return stream;
  };
  return subset;
}

/**
 * The font subsets and their ToUnicode maps go through the context's flateStream; pdf-lib deflates them with
 * pako (JavaScript), which was a third of a sheet's time. Node's zlib gives the same FlateDecode bytes format
 * at the same default level, natively. (Page content streams are deflated by pdf-lib itself, unchanged.)
 */
function deflateNatively(doc: PDFDocument, typedArrayFor: typeof import('pdf-lib')['typedArrayFor']): void {
  const context = doc.context;
  context.flateStream = (contents, dict = {}) =>
    context.stream(deflateSync(typedArrayFor(contents)), {
      ...dict,
      Filter: 'FlateDecode',
    });
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
  deflateNatively(doc, (await loadPdfLib()).typedArrayFor);
  // pdf-lib asks its fontkit to parse the bytes it is given: answer with a view of the font parsed once.
  doc.registerFontkit({
    create: (bytes) => {
      const font = fonts.get(bytes as Uint8Array);
      return font ? documentFont(font) : fontkit!.create(bytes);
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
