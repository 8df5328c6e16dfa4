import type { AnySql } from '@qiraa/db';
import type { WindowCode } from './catalogTypes';

export interface OperationalForm {
  id: string;
  organizationId: string | null;
  externalId: string;
  version: number;
  status: 'operational';
  /** Questions on the form per measure code. */
  itemCounts: Record<string, number>;
}

/**
 * The operational screening forms an organization's sittings may be served from for one grade and window
 * (organizationId null: global forms only), the served one first: the organization's own before global
 * ones, then the newest approval. More than one is the spec's `alternate_form`.
 */
export async function operationalFormsFor(
  sql: AnySql,
  cell: { organizationId: string | null; grade: number; window: WindowCode },
): Promise<OperationalForm[]> {
  const rows = await sql<
    {
      id: string;
      organization_id: string | null;
      external_id: string;
      version: number;
      item_counts: Record<string, number> | null;
    }[]
  >`
    select f.id, f.organization_id, f.external_id, f.version,
           (select jsonb_object_agg(c.measure_code, c.n)
              from (select measure_code, count(*)::int as n from content_items
                     where screening_form_id = f.id group by measure_code) c) as item_counts
    from content_screening_forms f
    where f.status = 'operational' and f.grade = ${cell.grade} and f.window_code = ${cell.window}
      and (f.organization_id is null or f.organization_id = ${cell.organizationId ?? ''})
    order by (f.organization_id is null), f.approved_at desc nulls last, f.version desc, f.created_at desc, f.id`;
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    externalId: r.external_id,
    version: r.version,
    status: 'operational',
    itemCounts: r.item_counts ?? {},
  }));
}
