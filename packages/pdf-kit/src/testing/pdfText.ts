import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// pdftotext wraps right-to-left lines in embedding marks (U+202A-U+202E); a reader sees none of them.
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text of a PDF as poppler's pdftotext extracts it (logical order), without bidi control marks. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
    return stdout.replace(BIDI_CONTROLS, '');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '«': '»',
  '»': '«',
};
const unmirror = (ch: string) => MIRRORED[ch] ?? ch;

/**
 * The words of page 1 as drawn, read right to left and top to bottom the way an Arabic reader reads them
 * (pdftotext -bbox; each Arabic word given back in logical order). Plain pdftotext glues a number to the
 * Arabic word on its left; the boxes show what a reader sees.
 */
export async function pdfWordsRightToLeft(pdf: Uint8Array): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-bbox', '-f', '1', '-l', '1', '-enc', 'UTF-8', file, '-']);
    const words = [
      ...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g),
    ].map((m) => ({ x: Number(m[3]), y: Math.round(Number(m[2])), text: m[4]! }));
    words.sort((a, b) => a.y - b.y || b.x - a.x);
    return words.map((w) => (/[\u0600-\u06ff]/.test(w.text) ? [...w.text].reverse().map(unmirror).join('') : w.text));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Renders page `page` of a PDF to PNG bytes (pdftoppm), to look at or to compare. */
export async function pdfPagePng(pdf: Uint8Array, page = 1, dpi = 72): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    await run('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      file,
      path.join(dir, 'page'),
    ]);
    const { readFile } = await import('node:fs/promises');
    return await readFile(path.join(dir, 'page.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
