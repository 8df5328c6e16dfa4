import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  approveImportBatch,
  ImportBody,
  type ImportBodyInput,
  type ImportReport,
  importContent,
  resolveBlueprintCell,
  setBlueprintCell,
  WINDOWS,
  type WindowCode,
} from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { ApiError, compileBodyValidator } from '@qiraa/http-kit';
import { LanguageSafetyUnavailableError } from '@qiraa/language-safety';
import { type Static, Type } from 'typebox';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

/** The demo pack shipped with the repository: content/pack at the repository root. */
export const DEMO_PACK_DIR = fileURLToPath(new URL('../../../../content/pack/', import.meta.url));

const Manifest = Type.Object({
  pack: Type.String({ minLength: 1 }),
  version: Type.String({ minLength: 1 }),
  files: Type.Array(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*\\.json$' }), { minItems: 1 }),
  blueprint: Type.Array(
    Type.Object({
      grade: Type.Integer({ minimum: 1, maximum: 4 }),
      window: Type.Union(WINDOWS.map((w) => Type.Literal(w))),
      measures: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
    }),
  ),
});
type Manifest = Static<typeof Manifest>;

const validManifest = compileBodyValidator(Manifest);
const validBody = compileBodyValidator(ImportBody);

export interface FileOutcome {
  file: string;
  contentKind: string;
  batchId: string | null;
  accepted: number;
  unchanged: number;
  rejected: number;
  approved: boolean;
  /** Why the file did not go live as a whole: rejected rows, form problems, a refused body or approval. */
  problems: string[];
}

export interface CellOutcome {
  grade: number;
  window: WindowCode;
  outcome: 'set' | 'unchanged' | 'refused';
  measures: string[];
  problems: string[];
  warnings: string[];
}

export interface PackImport {
  files: FileOutcome[];
  cells: CellOutcome[];
  /** Every problem of every file and cell; empty when the whole pack is live. */
  problems: string[];
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new CliError(`cannot read ${file}`);
  });
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not valid JSON`);
  }
}

const invalid = (file: string, details: { field: string; issue: string }[]) =>
  new CliError(`${file}: ${details.map((d) => `${d.field} ${d.issue}`).join('; ')} (nothing imported)`);

/** The manifest and every file it names, checked against their schemas before anything is written. */
async function readPack(
  dir: string,
): Promise<{ manifest: Manifest; bodies: { file: string; body: ImportBodyInput }[] }> {
  const manifestFile = path.join(dir, 'manifest.json');
  const manifest = await readJson(manifestFile);
  const m = validManifest(manifest);
  if (!m.ok) throw invalid(manifestFile, m.details);
  const bodies = [];
  for (const file of (manifest as Manifest).files) {
    const body = await readJson(path.join(dir, file));
    const b = validBody(body);
    if (!b.ok) throw invalid(file, b.details);
    bodies.push({ file, body: body as ImportBodyInput });
  }
  return { manifest: manifest as Manifest, bodies };
}

function reportProblems(report: ImportReport): string[] {
  const problems = report.rows
    .filter((r) => r.rejectReason !== null)
    .map((r) => `${r.entity} ${r.externalId ?? `#${r.rowIndex}`}: ${r.rejectReason}`);
  const form = report.formProblems;
  if (report.formRejected && form) {
    problems.push(
      ...form.missingPositions.map((p) => `form: ${p.measureCode} position ${p.formPosition} missing`),
      ...form.duplicatePositions.map((p) => `form: ${p.measureCode} position ${p.formPosition} taken twice`),
      ...form.countMismatch.map((c) => `form: ${c.measureCode} has ${c.actual} items, the catalog wants ${c.expected}`),
      ...form.measuresNotInGrade.map((code) => `form: ${code} is not a measure of this grade`),
    );
  }
  return problems;
}

/**
 * One file: imported as global content by the operator (createdBy null), then approved. A batch of only
 * unchanged rows is approved too: it leaves no pending batch in the review queue, and it puts live any
 * version an interrupted earlier run stored but never approved (approval takes every pending version the
 * report points at). A batch with a rejected row is left pending_review: a broken file never goes live in part.
 */
async function importFile(deps: { sql: Sql }, file: string, body: ImportBodyInput): Promise<FileOutcome> {
  const outcome: FileOutcome = {
    file,
    contentKind: body.contentKind ?? 'item',
    batchId: null,
    accepted: 0,
    unchanged: 0,
    rejected: 0,
    approved: false,
    problems: [],
  };
  let report: ImportReport;
  try {
    report = await importContent(deps, { organizationId: null, createdBy: null, body });
  } catch (error) {
    // No language-safety rule set: nothing can be checked, so the whole run stops.
    if (error instanceof LanguageSafetyUnavailableError) throw new CliError(`${file}: ${error.message}`);
    if (!(error instanceof ApiError)) throw error;
    const details = (error.details ?? []).map((d) => `${d.field} ${d.issue}`).join('; ');
    outcome.problems.push(
      `refused (${error.status} ${error.reason ?? error.code}): ${error.message}${details ? ` — ${details}` : ''}`,
    );
    return outcome;
  }
  Object.assign(outcome, { batchId: report.batchId, ...report.counts });
  outcome.problems = reportProblems(report);
  if (outcome.problems.length > 0) {
    outcome.problems.push(`batch ${report.batchId} left pending_review`);
    return outcome;
  }
  const approval = await approveImportBatch(deps, { batchId: report.batchId, approvedBy: null, exceptions: [] });
  if (approval.outcome === 'approved') outcome.approved = true;
  else {
    const ids = 'ids' in approval ? ` ${approval.ids.join(', ')}` : '';
    outcome.problems.push(`approval of batch ${report.batchId} refused: ${approval.outcome}${ids}`);
  }
  return outcome;
}

const sameMeasures = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((m, i) => m === b[i]);

/** One global cell; a cell already stored with exactly these measures is left alone (its revision too). */
async function setCell(deps: { sql: Sql }, cell: Manifest['blueprint'][number]): Promise<CellOutcome> {
  const address = { organizationId: null, schoolId: null, grade: cell.grade, window: cell.window };
  const outcome: CellOutcome = { ...cell, outcome: 'unchanged', problems: [], warnings: [] };
  // At the global address only the global cell can apply: source 'global' is what is stored there.
  const stored = await resolveBlueprintCell(deps.sql, address);
  const same =
    stored.kind === 'measures' && !stored.acknowledgeProvisional && sameMeasures(stored.measures, cell.measures);
  if (stored.source === 'global' && same) return outcome;
  // strict: a measure without an operational form is refused, not merely warned about
  const result = await setBlueprintCell(deps.sql, {
    ...address,
    updatedBy: null,
    body: { content: { measures: cell.measures }, strict: true },
  });
  if (!result.ok) {
    const details = result.details.map((d) => `${d.field} ${d.issue}`).join('; ');
    outcome.outcome = 'refused';
    outcome.problems.push(`${result.reason}${details ? ` — ${details}` : ''}`);
    return outcome;
  }
  outcome.outcome = 'set';
  outcome.warnings = result.measureWarnings.map((w) => (w.measureCode ? `${w.code} (${w.measureCode})` : w.code));
  return outcome;
}

/**
 * Imports a content pack: every file its manifest lists, in order, as global content (each file one import
 * batch, approved when it stored something new), then the manifest's global diagnostic blueprint cells.
 * Idempotent: a second run stores no content row and rewrites no cell. Throws CliError when the pack cannot
 * be read or a file does not match the import body (then nothing is written).
 */
export async function importContentPack(deps: { sql: Sql }, dir: string): Promise<PackImport> {
  const { manifest, bodies } = await readPack(dir);
  const files: FileOutcome[] = [];
  for (const { file, body } of bodies) files.push(await importFile(deps, file, body));
  const cells: CellOutcome[] = [];
  for (const cell of manifest.blueprint) cells.push(await setCell(deps, cell));
  const problems = [
    ...files.flatMap((f) => f.problems.map((p) => `${f.file}: ${p}`)),
    ...cells.flatMap((c) => c.problems.map((p) => `blueprint grade ${c.grade} ${c.window}: ${p}`)),
  ];
  return { files, cells, problems };
}

/** Totals for one line of output (seed-demo prints it). */
export const packTotals = (result: PackImport) => {
  const sum = (key: 'accepted' | 'unchanged' | 'rejected') => result.files.reduce((n, f) => n + f[key], 0);
  return {
    files: result.files.length,
    accepted: sum('accepted'),
    unchanged: sum('unchanged'),
    rejected: sum('rejected'),
    cellsSet: result.cells.filter((c) => c.outcome === 'set').length,
    cellsUnchanged: result.cells.filter((c) => c.outcome === 'unchanged').length,
  };
};

function printPack(dir: string, result: PackImport): void {
  const width = Math.max(...result.files.map((f) => f.file.length));
  const lines = [`content pack ${dir}`];
  for (const f of result.files) {
    const state = f.approved ? `approved ${f.batchId}` : f.problems.length > 0 ? 'NOT LIVE' : 'nothing new';
    lines.push(
      `  ${f.file.padEnd(width)}  ${f.contentKind.padEnd(15)} accepted ${f.accepted}, unchanged ${f.unchanged}, ` +
        `rejected ${f.rejected}  ${state}`,
    );
  }
  lines.push('global diagnostic blueprint:');
  for (const c of result.cells) {
    const warnings = c.warnings.length > 0 ? ` (warnings: ${c.warnings.join(', ')})` : '';
    lines.push(`  grade ${c.grade} ${c.window}: ${c.outcome} [${c.measures.join(', ')}]${warnings}`);
  }
  const t = packTotals(result);
  lines.push(
    `accepted ${t.accepted}, unchanged ${t.unchanged}, rejected ${t.rejected}; ` +
      `blueprint cells set ${t.cellsSet}, unchanged ${t.cellsUnchanged}`,
  );
  console.log(lines.join('\n'));
}

/**
 * `qiraa content import <dir>`: imports the pack in `dir` (its manifest.json lists the files, each one
 * POST /api/items/import body) as global content and approves it, then sets the manifest's global blueprint
 * cells. Prints a line per file and cell; every rejected row, form problem or refused cell goes to stderr
 * with its reason and makes the exit code 1.
 */
export async function contentImportCommand(dir: string): Promise<void> {
  const result = await withRuntime(({ sql }) => importContentPack({ sql }, path.resolve(dir)));
  printPack(dir, result);
  for (const problem of result.problems) console.error(problem);
  if (result.problems.length > 0) process.exitCode = 1;
}
