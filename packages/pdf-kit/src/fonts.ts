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

let files: Promise<Buffer[]> | undefined;

/** Embeds the fonts (subset: only the glyphs a document uses end up in it). The files are read once. */
export async function embedArabicFonts(doc: PDFDocument): Promise<ArabicFonts> {
  files ??= Promise.all(
    ['NotoNaskhArabic-Regular.ttf', 'NotoNaskhArabic-Bold.ttf', 'NotoSans-Regular.ttf'].map((f) =>
      readFile(fontFile(f)),
    ),
  );
  const [arabic, arabicBold, latin] = await files;
  doc.registerFontkit(fontkit);
  return {
    arabic: await doc.embedFont(arabic!, { subset: true }),
    arabicBold: await doc.embedFont(arabicBold!, { subset: true }),
    latin: await doc.embedFont(latin!, { subset: true }),
  };
}
