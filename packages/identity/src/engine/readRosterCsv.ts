import { parse } from 'csv-parse/sync';
import type { RosterError } from './rosterTypes';

export interface CsvRow {
  readonly line: number;
  readonly values: Readonly<Record<string, string>>;
}

export type CsvRead = { ok: true; rows: CsvRow[] } | { ok: false; error: RosterError };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * One CSV file as rows keyed by header, each with its line number (the header is line 1). UTF-8 only (a BOM
 * is dropped); the header must hold every required column (others are ignored, as OneRoster allows), or with
 * `exact` be exactly those columns in that order.
 */
export function readCsv(
  file: string,
  bytes: Uint8Array,
  required: readonly string[],
  options: { exact?: boolean } = {},
): CsvRead {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, error: fileError(file, 'not_utf8', 'the file is not UTF-8 text') };
  }
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim()),
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? null;
    return { ok: false, error: { ...fileError(file, 'invalid_value', (error as Error).message), line } };
  }
  const header = headerOf(text);
  const missing = required.filter((column) => !header.includes(column));
  if (options.exact && header.join(',') !== required.join(',')) {
    return {
      ok: false,
      error: { ...fileError(file, 'bad_header', `the header must be exactly: ${required.join(',')}`), line: 1 },
    };
  }
  if (missing.length > 0) {
    return {
      ok: false,
      error: { ...fileError(file, 'bad_header', `missing column(s): ${missing.join(', ')}`), line: 1 },
    };
  }
  return { ok: true, rows: records.map(({ record, info }) => ({ line: info.lines, values: record })) };
}

function headerOf(text: string): string[] {
  const [first] = parse(text, { to_line: 1, relax_column_count: true }) as string[][];
  return (first ?? []).map((h) => h.trim());
}

const fileError = (file: string, code: RosterError['code'], message: string): RosterError => ({
  file,
  line: null,
  field: null,
  code,
  message,
});
