import type * as PdfLib from 'pdf-lib';

/**
 * pdf-lib (and fontkit, fonts.ts) load with the first PDF a process makes, not with the application: the two
 * were about 0.6 CPU-s of every start of the API, the worker and the CLI, and of every test worker, and most
 * of those never print a PDF. Every document starts with `newPdfDocument`, which loads them; drawing code
 * that runs on a document reads the loaded module with `pdfLib()`.
 */
let loaded: typeof PdfLib | undefined;

export async function loadPdfLib(): Promise<typeof PdfLib> {
  loaded ??= await import('pdf-lib');
  return loaded;
}

/** pdf-lib, for code that draws on a document (so newPdfDocument has loaded it). */
export function pdfLib(): typeof PdfLib {
  if (!loaded) throw new Error('pdf-lib used before it was loaded: create the document with newPdfDocument');
  return loaded;
}

/** A new PDF with no metadata (no dates, nothing a reader could print). */
export async function newPdfDocument(): Promise<PdfLib.PDFDocument> {
  return (await loadPdfLib()).PDFDocument.create({ updateMetadata: false });
}
