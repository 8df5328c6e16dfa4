import type { EntityCounts, RosterCounts, RosterError } from './rosterTypes';

export type SchoolOutcome = 'applied' | 'would_apply' | 'not_applied' | 'failed';
export type ImportStatus = 'dry_run' | 'applied' | 'partially_applied' | 'not_applied';

export interface SchoolReport {
  /** The service's id; null for a school a dry run would create, or one that was refused before it had one. */
  schoolId: string | null;
  sourcedId: string | null;
  name: string | null;
  outcome: SchoolOutcome;
  counts: RosterCounts;
}

export interface RosterReport {
  id: string;
  organizationId: string;
  format: 'oneroster' | 'simple';
  dryRun: boolean;
  deactivateMissing: boolean;
  academicYear: string | null;
  status: ImportStatus;
  /** What was written (a dry run: what would be), summed over the schools applied (or that would apply). */
  counts: RosterCounts;
  schools: SchoolReport[];
  errorCount: number;
  /** Every problem, by file and line; at most MAX_REPORTED_ERRORS (then `errorsTruncated`). */
  errors: RosterError[];
  errorsTruncated: boolean;
  createdAt: string;
}

export const MAX_REPORTED_ERRORS = 10_000;

export function addCounts(into: RosterCounts, from: RosterCounts): void {
  for (const kind of Object.keys(into) as (keyof RosterCounts)[]) {
    for (const op of Object.keys(into[kind]) as (keyof EntityCounts)[]) into[kind][op] += from[kind][op];
  }
}
