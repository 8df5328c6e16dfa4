import type { PDFPage } from 'pdf-lib';
import { rgb } from 'pdf-lib';
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
  // One path for the whole code (a rectangle per run of dark modules in a row), drawn with one fill: a
  // drawRectangle per run cost more than the rest of the sheet. Path y grows downwards from the top-left.
  const parts: string[] = [];
  for (let row = 0; row < n; row++) {
    let col = 0;
    while (col < n) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col++;
      const x = (4 + start) * cell;
      const y = (4 + row) * cell;
      parts.push(
        `M${x.toFixed(3)} ${y.toFixed(3)}h${((col - start) * cell).toFixed(3)}v${cell.toFixed(3)}h${(-(col - start) * cell).toFixed(3)}Z`,
      );
    }
  }
  page.drawSvgPath(parts.join(''), { x: at.x, y: at.y + at.size, color: rgb(0, 0, 0), borderWidth: 0 });
}
