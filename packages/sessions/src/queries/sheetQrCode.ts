import { pdfLib } from '@qiraa/pdf-kit';
import type { PDFOperator, PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';

/** Where a printed QR code points: the public app's page for one slot (QIRAA_PUBLIC_URL, default below). */
export const sessionLink = (slotId: string, base = process.env.QIRAA_PUBLIC_URL ?? 'https://qiraa.app') =>
  `${base.replace(/\/+$/, '')}/s/${slotId}`;

/** The QR modules of a text (error correction M: a creased or smudged sheet still scans). */
export const qrModules = (text: string) => QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;

/**
 * Draws the QR code as vector squares (one rectangle per run of dark modules in a row: sharp at any print
 * size, and small), with the 4-module quiet zone the standard asks for left white around it.
 */
export function drawQr(page: PDFPage, text: string, at: { x: number; y: number; size: number }): void {
  const modules = qrModules(text);
  const n = modules.size;
  const cell = at.size / (n + 8);
  // One path for the whole code, filled once: a rectangle (`re`, one operator) per run of dark modules in a
  // row, in whole modules (short integers to write and compress), the matrix scaling a module to its cell
  // with y growing downwards from the top-left. A drawRectangle per run, or an SVG path (five operators a
  // run), was most of a sheet's content stream and of its deflate time.
  const { concatTransformationMatrix, fill, popGraphicsState, pushGraphicsState, rectangle, setFillingRgbColor } =
    pdfLib();
  const runs: PDFOperator[] = [];
  for (let row = 0; row < n; row++) {
    let col = 0;
    while (col < n) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col++;
      runs.push(rectangle(4 + start, 4 + row, col - start, 1));
    }
  }
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(cell, 0, 0, -cell, at.x, at.y + at.size),
    setFillingRgbColor(0, 0, 0),
    ...runs,
    fill(),
    popGraphicsState(),
  );
}
