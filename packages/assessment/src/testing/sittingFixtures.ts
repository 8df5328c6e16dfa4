import { readFile } from 'node:fs/promises';
import { approveImportBatch, type ImportBodyInput, importContent, setBlueprintCell } from '@qiraa/content';
import type { AnySql, Sql } from '@qiraa/db';
import type { ScreeningWindow } from '../engine/calendar';

/**
 * Test fixtures of the sittings: an open screening window and the demo pack's screening forms. Runner-free
 * (the matrix and the fuzz seed use them outside vitest).
 */

const DAY = 86_400_000;
const dayOffset = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/**
 * A stored calendar for the organization's academic year whose `open` window covers today (30 days either
 * side) and whose other windows lie months ahead, so nothing else is open.
 */
export async function openWindowFor(
  sql: AnySql,
  organizationId: string,
  academicYear: string,
  open: ScreeningWindow = 'BOY',
): Promise<void> {
  const order: ScreeningWindow[] = [open, ...(['BOY', 'MOY', 'EOY'] as const).filter((w) => w !== open)];
  const ranges = [
    [-30, 30],
    [90, 120],
    [150, 180],
  ] as const;
  for (const [i, window] of order.entries()) {
    const [from, to] = ranges[i]!;
    await sql`
      insert into asm_window_calendars (organization_id, academic_year, evidence_window, starts_on, ends_on)
      values (${organizationId}, ${academicYear}, ${window}, ${dayOffset(from)}, ${dayOffset(to)})
      on conflict (organization_id, academic_year, evidence_window)
      do update set starts_on = excluded.starts_on, ends_on = excluded.ends_on`;
  }
  await sql`
    delete from asm_window_overrides
    where organization_id = ${organizationId} and academic_year = ${academicYear}`;
}

/** Closes the window early (an administrator's close): open sittings of it are refused `window_closed`. */
export async function closeWindowEarly(
  sql: AnySql,
  organizationId: string,
  academicYear: string,
  window: ScreeningWindow,
): Promise<void> {
  await sql`
    insert into asm_window_overrides (organization_id, academic_year, evidence_window, closed_at)
    values (${organizationId}, ${academicYear}, ${window}, now() - interval '1 second')
    on conflict (organization_id, academic_year, evidence_window) do update set closed_at = excluded.closed_at`;
}

const PACK = new URL('../../../../content/pack/', import.meta.url);
const FORM_FILES = [1, 2, 3, 4].map((g) => `g${g}-boy-screening-form.json`);

/**
 * The demo pack's four BOY screening forms as global content, approved, and the manifest's global BOY
 * blueprint cells (as `qiraa content import content/pack` sets them, strict). Throws on any refusal.
 */
export async function importDemoScreeningForms(sql: Sql): Promise<void> {
  for (const file of FORM_FILES) {
    const body = JSON.parse(await readFile(new URL(file, PACK), 'utf8')) as ImportBodyInput;
    const report = await importContent({ sql }, { organizationId: null, createdBy: null, body });
    if (report.formRejected) throw new Error(`${file}: form rejected`);
    const approval = await approveImportBatch({ sql }, { batchId: report.batchId, approvedBy: null, exceptions: [] });
    if (approval.outcome !== 'approved') throw new Error(`${file}: approval ${approval.outcome}`);
  }
  const manifest = JSON.parse(await readFile(new URL('manifest.json', PACK), 'utf8')) as {
    blueprint: { grade: number; window: ScreeningWindow; measures: string[] }[];
  };
  for (const cell of manifest.blueprint) {
    const result = await setBlueprintCell(sql, {
      organizationId: null,
      schoolId: null,
      grade: cell.grade,
      window: cell.window,
      updatedBy: null,
      body: { content: { measures: cell.measures }, strict: true },
    });
    if (!result.ok) throw new Error(`blueprint grade ${cell.grade}: ${result.reason}`);
  }
}
