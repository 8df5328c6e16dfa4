import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import type { Caller } from '../engine/caller';
import type { RosterReport } from '../engine/rosterReport';
import { inOrganizationOr404 } from './scope';

/** A stored import report; another organization's is 404 like a missing one. */
export async function getRosterImport(sql: AnySql, caller: Caller, id: string): Promise<RosterReport> {
  const [row] = await sql<{ organization_id: string; report: RosterReport }[]>`
    select organization_id, report from roster_imports where id = ${id}`;
  if (!row) throw notFound('roster import');
  inOrganizationOr404(caller, row.organization_id, 'roster import');
  return row.report;
}
