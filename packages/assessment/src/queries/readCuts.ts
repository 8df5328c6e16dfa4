import type { AnySql } from '@qiraa/db';
import { EngineUnavailableError, readEngineRules } from '@qiraa/http-kit';
import { READ_BANDS, type ReadBand, type ReadCuts, type ReadCutTable } from '../engine/bandRead';
import type { ScreeningWindow } from '../engine/calendar';
import type { ReadCell, ReadCutPin } from '../events/readEvents';

export interface ReadCutAddress {
  readonly cell: ReadCell;
  readonly grade: number;
  readonly window: ScreeningWindow;
}

interface CutRow {
  version: string;
  organization_id: string | null;
  accuracy_cuts: unknown;
  rate_cuts: unknown;
  rate_withheld: boolean;
  provisional: boolean;
}

/**
 * The table is data an operator writes by hand. A cut point that is not `{ band, min }` with a known band and
 * a finite number makes the row corrupt: the scoring engine's rules cannot be read, 503 ENGINE_UNAVAILABLE
 * (before issue 24 such points were dropped, and a read was banded with what was left: a wrong band).
 * An empty list stays legitimate (no rate norm, or a table with no cuts: `not_banded`).
 */
function cutsOf(value: unknown, row: { version: string; column: string }): ReadCuts['accuracy'] {
  const wellFormed = (c: unknown): c is { band: ReadBand; min: number } => {
    const cut = c as { band?: unknown; min?: unknown } | null;
    return (
      cut !== null &&
      typeof cut === 'object' &&
      READ_BANDS.includes(cut.band as ReadBand) &&
      typeof cut.min === 'number' &&
      Number.isFinite(cut.min)
    );
  };
  if (!Array.isArray(value) || !value.every(wellFormed)) {
    throw new EngineUnavailableError('scoring', `read cuts ${row.version}: ${row.column} is malformed`);
  }
  return value.map((c) => ({ band: c.band, min: c.min }));
}

const tableOf = (row: CutRow): ReadCutTable => ({
  version: row.version,
  organizationId: row.organization_id,
  accuracy: cutsOf(row.accuracy_cuts, { version: row.version, column: 'accuracy_cuts' }),
  rate: cutsOf(row.rate_cuts, { version: row.version, column: 'rate_cuts' }),
  rateWithheld: row.rate_withheld,
  provisional: row.provisional,
});

/**
 * The cut table a read is banded with now: the organization's newest version of the cell, grade and window,
 * else the newest global one; null when neither exists (the read is stored without a band).
 */
export async function currentReadCuts(
  sql: AnySql,
  organizationId: string,
  at: ReadCutAddress,
): Promise<ReadCutTable | null> {
  const [row] = await readEngineRules(
    'scoring',
    'the read cuts',
    () => sql<CutRow[]>`
      select version, organization_id, accuracy_cuts, rate_cuts, rate_withheld, provisional from asm_read_cuts
      where cell = ${at.cell} and grade = ${at.grade} and evidence_window = ${at.window}
        and (organization_id = ${organizationId} or organization_id is null)
      order by organization_id is null, published_at desc, version desc
      limit 1`,
  );
  return row ? tableOf(row) : null;
}

/** The cut table a stored read pinned (null when the pin is null or its rows are gone). */
export async function pinnedReadCuts(
  sql: AnySql,
  pin: ReadCutPin | null,
  at: ReadCutAddress,
): Promise<ReadCutTable | null> {
  if (!pin) return null;
  const [row] = await readEngineRules(
    'scoring',
    'the pinned read cuts',
    () => sql<CutRow[]>`
      select version, organization_id, accuracy_cuts, rate_cuts, rate_withheld, provisional from asm_read_cuts
      where version = ${pin.version} and organization_id is not distinct from ${pin.organizationId}
        and cell = ${at.cell} and grade = ${at.grade} and evidence_window = ${at.window}`,
  );
  return row ? tableOf(row) : null;
}
