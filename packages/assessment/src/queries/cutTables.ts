import type { AnySql } from '@qiraa/db';
import { EngineUnavailableError, readEngineRules } from '@qiraa/http-kit';
import type { ScreeningWindow } from '../engine/calendar';
import type { MeasureLevelCuts } from '../engine/scoreMeasure';
import type { CutVersionPins } from '../events/sittingTypes';

/**
 * The cut-table versions a sitting starting now pins: the organization's newest (if any) and the global newest.
 * Cut tables are the scoring engine's rules: unreadable, they are `EngineUnavailableError` (503).
 */
export async function cutVersionsInForce(sql: AnySql, organizationId: string): Promise<CutVersionPins> {
  const rows = await readEngineRules(
    'scoring',
    'the measure cut versions',
    () => sql<{ version: string; organization_id: string | null }[]>`
      select distinct on (organization_id) version, organization_id from asm_measure_cut_versions
      where organization_id is null or organization_id = ${organizationId}
      order by organization_id, published_at desc, version desc`,
  );
  return {
    organization: rows.find((r) => r.organization_id !== null)?.version ?? null,
    global: rows.find((r) => r.organization_id === null)?.version ?? null,
  };
}

/**
 * The cuts of every measure for one grade and window under the pinned versions: the organization's row where
 * its version has one, else the global row. A measure without a row has no cuts (its level stays null); a pinned
 * version that no longer exists is the scoring engine's rules missing: 503 ENGINE_UNAVAILABLE (issue 24).
 */
export async function pinnedCuts(
  sql: AnySql,
  pins: CutVersionPins,
  grade: number,
  window: ScreeningWindow,
): Promise<Map<string, MeasureLevelCuts>> {
  const versions = [pins.organization, pins.global].filter((v): v is string => v !== null);
  if (versions.length === 0) return new Map();
  const [rows, known] = await Promise.all([
    readEngineRules(
      'scoring',
      'the measure cuts',
      () => sql<
        { version: string; measure_code: string; min2: number; min3: number; min4: number; provisional: boolean }[]
      >`
      select version, measure_code, min_raw_level2 as min2, min_raw_level3 as min3, min_raw_level4 as min4, provisional
      from asm_measure_cuts
      where version = any(${sql.array(versions, 1009)}::text[]) and grade = ${grade} and evidence_window = ${window}`,
    ),
    // A pinned version that is gone is the scoring rules missing: the sitting cannot be scored as it was.
    readEngineRules(
      'scoring',
      'the pinned measure cut versions',
      () => sql<{ version: string }[]>`
        select version from asm_measure_cut_versions where version = any(${sql.array(versions, 1009)}::text[])`,
    ),
  ]);
  const gone = versions.filter((v) => !known.some((k) => k.version === v));
  if (gone.length > 0) {
    throw new EngineUnavailableError('scoring', `the pinned measure cut version ${gone.join(', ')} is gone`);
  }
  const cuts = new Map<string, MeasureLevelCuts>();
  for (const version of versions.reverse()) {
    for (const r of rows.filter((row) => row.version === version)) {
      cuts.set(r.measure_code, { version, minRaw: [r.min2, r.min3, r.min4], provisional: r.provisional });
    }
  }
  return cuts;
}
