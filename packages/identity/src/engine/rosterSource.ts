import { unzipSync } from 'fflate';
import { readOneRoster } from './readOneRoster';
import { readSimpleCsv } from './readSimpleCsv';
import { emptyRosterInput, type RosterInput } from './rosterTypes';

/** What an import reads: a OneRoster set (a ZIP or a folder's files) or one simple CSV. */
export type RosterSource =
  | { readonly kind: 'oneroster-zip'; readonly bytes: Uint8Array }
  | { readonly kind: 'oneroster-files'; readonly files: ReadonlyMap<string, Uint8Array> }
  | { readonly kind: 'simple-csv'; readonly name: string; readonly bytes: Uint8Array };

/** A file of a OneRoster ZIP larger than this once inflated is not read (a ZIP bomb stops here). */
export const MAX_INFLATED_FILE_BYTES = 256 * 1024 * 1024;
const READ = new Set(['orgs.csv', 'classes.csv', 'users.csv', 'roles.csv', 'enrollments.csv']);

export function readRosterSource(source: RosterSource, academicYear: string): RosterInput {
  if (source.kind === 'simple-csv') return readSimpleCsv(source.name, source.bytes);
  if (source.kind === 'oneroster-files') return readOneRoster(source.files, academicYear);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(source.bytes, {
      filter: (file) => READ.has(baseName(file.name)) && file.originalSize <= MAX_INFLATED_FILE_BYTES,
    });
  } catch {
    return emptyRosterInput('oneroster', [
      {
        file: 'upload.zip',
        line: null,
        field: null,
        code: 'invalid_value',
        message: 'not a ZIP file',
        schoolKeys: null,
      },
    ]);
  }
  return readOneRoster(new Map(Object.entries(entries).map(([name, bytes]) => [baseName(name), bytes])), academicYear);
}

const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);
