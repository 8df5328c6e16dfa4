import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { importRoster, type RosterReport, type RosterSource } from '@qiraa/identity';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

export interface RosterImportFlags {
  dryRun?: boolean;
  deactivateMissing?: boolean;
  org?: string;
  academicYear?: string;
  json?: boolean;
}

/**
 * `qiraa roster import <folder | zip | csv>`: a OneRoster 1.2 CSV set (a folder or a ZIP) or the simple CSV
 * (docs/roster-import.md). Prints the report; exits 1 when any school was not (or would not be) applied.
 */
export async function rosterImportCommand(target: string, flags: RosterImportFlags): Promise<void> {
  const source = await readSource(target);
  const report = await withRuntime(async (runtime) => {
    const organizationId = flags.org ?? (await onlyOrganization(runtime.sql));
    return importRoster(runtime.deps, source, {
      organizationId,
      actorUserId: null,
      dryRun: flags.dryRun ?? false,
      deactivateMissing: flags.deactivateMissing ?? false,
      ...(flags.academicYear ? { academicYear: flags.academicYear } : {}),
    });
  });
  console.log(flags.json ? JSON.stringify(report) : describe(report));
  if (
    report.schools.some((s) => s.outcome === 'not_applied' || s.outcome === 'failed') ||
    report.schools.length === 0
  ) {
    process.exitCode = 1;
  }
}

async function readSource(target: string): Promise<RosterSource> {
  const info = await stat(target).catch(() => null);
  if (!info) throw new CliError(`no such file or folder: ${target}`, 1);
  if (info.isDirectory()) {
    const names = (await readdir(target)).filter((n) => n.toLowerCase().endsWith('.csv'));
    const files = new Map<string, Uint8Array>();
    for (const name of names) files.set(name, await readFile(path.join(target, name)));
    return { kind: 'oneroster-files', files };
  }
  const bytes = await readFile(target);
  if (target.toLowerCase().endsWith('.zip')) return { kind: 'oneroster-zip', bytes };
  if (target.toLowerCase().endsWith('.csv')) return { kind: 'simple-csv', name: path.basename(target), bytes };
  throw new CliError('give a folder or a .zip of OneRoster CSV files, or a .csv in the simple format', 1);
}

async function onlyOrganization(sql: import('@qiraa/db').Sql): Promise<string> {
  const rows = await sql<{ id: string }[]>`select id from organizations order by id limit 2`;
  if (rows.length === 1) return rows[0]!.id;
  throw new CliError('name the organization with --org <id> (there is not exactly one)', 1);
}

function describe(report: RosterReport): string {
  const lines = [`roster import ${report.id}: ${report.status} (${report.format})`];
  lines.push('kind           create update deactivate unchanged');
  for (const [kind, c] of Object.entries(report.counts)) {
    lines.push(
      `${kind.padEnd(14)} ${String(c.create).padStart(6)} ${String(c.update).padStart(6)} ${String(c.deactivate).padStart(10)} ${String(c.unchanged).padStart(9)}`,
    );
  }
  for (const s of report.schools) lines.push(`school ${s.schoolId ?? s.sourcedId ?? '-'}: ${s.outcome}`);
  for (const e of report.errors) {
    lines.push(`${e.file}${e.line === null ? '' : `:${e.line}`} ${e.field ?? '-'} ${e.code}: ${e.message}`);
  }
  if (report.errorsTruncated) lines.push(`… ${report.errorCount - report.errors.length} more errors`);
  return lines.join('\n');
}
