import { zipSync } from 'fflate';

/** A fixed time for every entry: the same sheets make the same ZIP bytes. */
const MTIME = new Date('2026-01-01T00:00:00Z');

/** The ZIP of the sheets, stored (level 0): PDF streams are compressed already, deflating again gains nothing. */
export const zipSheets = (files: readonly { fileName: string; pdf: Uint8Array }[]): Uint8Array =>
  zipSync(Object.fromEntries(files.map((f) => [f.fileName, [f.pdf, { level: 0 }]])), { mtime: MTIME });
