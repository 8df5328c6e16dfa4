import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { approveImportBatch, type ImportBodyInput, importContent } from '@qiraa/content';
import type { Sql } from '@qiraa/db';

const run = promisify(execFile);
const PACK = new URL('../../../../content/pack/', import.meta.url);

/**
 * Imports files of the demo pack (content/pack) as global content and approves them, the two steps
 * `qiraa content import` takes per file. Throws unless every row is accepted and goes live.
 */
export async function importDemoPackFiles(sql: Sql, files: readonly string[]): Promise<void> {
  for (const file of files) {
    const body = JSON.parse(await readFile(new URL(file, PACK), 'utf8')) as ImportBodyInput;
    const report = await importContent({ sql }, { organizationId: null, createdBy: null, body });
    if (report.counts.rejected > 0) throw new Error(`${file}: ${JSON.stringify(report.rows)}`);
    const approval = await approveImportBatch({ sql }, { batchId: report.batchId, approvedBy: null, exceptions: [] });
    if (approval.outcome !== 'approved') throw new Error(`${file}: approval ${approval.outcome}`);
  }
}

/** A file of the demo pack, parsed (to compare a sheet with what the pack says). */
export const demoPackFile = async (file: string) => JSON.parse(await readFile(new URL(file, PACK), 'utf8'));

// pdftotext marks right-to-left runs with embedding controls; a reader sees none of them.
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The words of every page grouped in printed rows, each row read right to left (pdftotext -bbox; an Arabic
 * word, extracted in visual order, is given back in logical order, NFC: pdftotext orders a letter's marks
 * as the font does).
 */
export async function pdfWordRows(pdf: Uint8Array): Promise<string[][]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'qiraa-sheet-'));
  try {
    const file = path.join(dir, 'sheet.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-']);
    const rows: string[][] = [];
    for (const page of stdout.split('<page ').slice(1)) {
      const words = [
        ...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g),
      ].map((m) => ({ x: Number(m[3]), y: Math.round(Number(m[2])), text: m[4]!.replace(BIDI_CONTROLS, '') }));
      const ys = [...new Set(words.map((w) => w.y))].sort((a, b) => a - b);
      for (const y of ys) {
        rows.push(
          words
            .filter((w) => w.y === y)
            .sort((a, b) => b.x - a.x)
            .map((w) => [...w.text].reverse().join('').normalize('NFC')),
        );
      }
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Digits of any script a child could read as a number: ASCII, Arabic-Indic, Eastern Arabic-Indic. */
export const ANY_DIGIT = /[0-9\u0660-\u0669\u06f0-\u06f9]/;

/** What a read-only route must leave alone: events, audit rows, word-list uses, attempts. */
export async function writeCounts(sql: Sql): Promise<Record<string, number>> {
  const [row] = await sql<Record<string, number>[]>`
    select (select count(*)::int from es_events) as events,
           (select count(*)::int from audit_log) as audit,
           (select count(*)::int from content_word_list_uses) as word_list_uses,
           (select count(*)::int from asm_attempts) as attempts,
           (select count(*)::int from content_word_lists) as word_lists,
           (select count(*)::int from content_passages) as passages`;
  return row!;
}
