import { recordAuditEvent } from '@qiraa/audit';
import { inTransaction, type Sql } from '@qiraa/db';
import type { EventStore } from '@qiraa/eventstore';
import { notFound } from '@qiraa/http-kit';
import type { Clock } from '@qiraa/kernel';
import { customAlphabet } from 'nanoid';
import {
  addCounts,
  type ImportStatus,
  MAX_REPORTED_ERRORS,
  type RosterReport,
  type SchoolReport,
} from '../engine/rosterReport';
import { type RosterSource, readRosterSource } from '../engine/rosterSource';
import {
  type EntityKind,
  emptyCounts,
  type RosterCounts,
  type RosterError,
  type ScopedError,
} from '../engine/rosterTypes';
import { applySchoolPlan } from './applySchoolPlan';
import { type PlanContext, planSchool, type SchoolPlan } from './planSchool';

export interface RosterImportOptions {
  readonly organizationId: string;
  /** The administrator who imports; null for the CLI (an operator on the server). */
  readonly actorUserId: number | null;
  readonly dryRun: boolean;
  readonly deactivateMissing: boolean;
  /** OneRoster classes' year; default: the academic year of today in the organization (it turns on 1 August). */
  readonly academicYear?: string;
}

export interface RosterDeps {
  readonly sql: Sql;
  readonly store: EventStore;
  readonly clock: Clock;
}

const newImportId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 16);
const KIND_OF_PERSONA: Record<string, EntityKind> = { TEACHER: 'teachers', PRINCIPAL: 'principals', PARENT: 'parents' };

/** A plan with problems is rolled back: nothing of its school is written. */
class SchoolRefused extends Error {
  constructor(readonly plan: SchoolPlan) {
    super('school refused');
  }
}

const isPowerOfTwoOrZero = (n: number) => (n & (n - 1)) === 0;

/**
 * The planner's row counts for the tables an import reads and grows. A ministry's first import multiplies
 * them many times over before autovacuum looks: with counts of an almost empty table the planning reads
 * scanned every row per looked-up id (58.8 s for the re-plan of 40 schools, 5.6 s after ANALYZE; bench:roster).
 * Refreshed before the first school and after 1, 2, 4, ... schools, so the counts are never off by more than 2×.
 */
async function refreshPlannerStatistics(sql: RosterDeps['sql']): Promise<void> {
  await sql`analyze users, class_students, parent_students, class_teachers, classes`;
}

/**
 * Imports a roster (docs/roster-import.md): reads the files, then plans each school against the database and,
 * unless a dry run, writes it in its own transaction, all or nothing (a school with any problem is not
 * written; the others are). Imports of one organization run one at a time. The report is stored and returned.
 */
export async function importRoster(deps: RosterDeps, source: RosterSource, options: RosterImportOptions) {
  const [org] = await deps.sql<{ country: string; time_zone: string }[]>`
    select country, time_zone from organizations where id = ${options.organizationId}`;
  if (!org) throw notFound('organization');
  const academicYear = options.academicYear ?? academicYearAt(deps.clock.now(), org.time_zone);
  const input = readRosterSource(source, academicYear);
  const ctx: PlanContext = {
    organizationId: options.organizationId,
    country: org.country,
    deactivateMissing: options.deactivateMissing,
  };
  const errors: ScopedError[] = [...input.errors];
  const wholeFileRefused = errors.some((e) => e.schoolKeys === null);
  const blocked = (key: string) => wholeFileRefused || errors.some((e) => e.schoolKeys?.includes(key));

  const schools: SchoolReport[] = [];
  const counts = emptyCounts();
  const adultsCounted = new Set<string>();
  for (const [index, ref] of input.schools.entries()) {
    if (isPowerOfTwoOrZero(index)) await refreshPlannerStatistics(deps.sql);
    let plan: SchoolPlan;
    let outcome: SchoolReport['outcome'];
    if (options.dryRun) {
      plan = await planSchool(deps.sql, input, ref, ctx);
      outcome = plan.errors.length > 0 || blocked(ref.key) ? 'not_applied' : 'would_apply';
    } else {
      try {
        plan = await inTransaction(deps.sql, async ({ sql: tx }) => {
          await tx`select pg_advisory_xact_lock(hashtext(${`roster-import:${options.organizationId}`}))`;
          const planned = await planSchool(tx, input, ref, ctx);
          if (planned.errors.length > 0 || blocked(ref.key)) throw new SchoolRefused(planned);
          await applySchoolPlan(tx, planned, options.organizationId, deps.clock.now());
          return planned;
        });
        outcome = 'applied';
      } catch (error) {
        if (!(error instanceof SchoolRefused)) throw error;
        plan = error.plan;
        outcome = 'not_applied';
      }
    }
    errors.push(...plan.errors);
    const schoolCounts = plan.counts;
    const counted = outcome === 'applied' || outcome === 'would_apply';
    for (const [key, { persona, op }] of plan.adultOutcomes) {
      schoolCounts[KIND_OF_PERSONA[persona]!][op] += 1;
      if (counted && !adultsCounted.has(key)) {
        adultsCounted.add(key);
        counts[KIND_OF_PERSONA[persona]!][op] += 1;
      }
    }
    if (counted) addCounts(counts, withoutAdults(schoolCounts));
    schools.push({
      schoolId: plan.schoolId || null,
      sourcedId: plan.sourcedId,
      name: plan.name || null,
      outcome,
      counts: schoolCounts,
    });
  }

  const status: ImportStatus = options.dryRun
    ? 'dry_run'
    : schools.length > 0 && schools.every((s) => s.outcome === 'applied')
      ? 'applied'
      : schools.some((s) => s.outcome === 'applied')
        ? 'partially_applied'
        : 'not_applied';
  const sorted = errors
    .map(({ schoolKeys: _, ...error }): RosterError => error)
    .sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
  const report: RosterReport = {
    id: `rim_${newImportId()}`,
    organizationId: options.organizationId,
    format: input.format,
    dryRun: options.dryRun,
    deactivateMissing: options.deactivateMissing,
    academicYear: input.format === 'oneroster' ? academicYear : null,
    status,
    counts,
    schools: schools.map((s) => (options.dryRun && s.counts.schools.create > 0 ? { ...s, schoolId: null } : s)),
    errorCount: sorted.length,
    errors: sorted.slice(0, MAX_REPORTED_ERRORS),
    errorsTruncated: sorted.length > MAX_REPORTED_ERRORS,
    createdAt: deps.clock.now().toISOString(),
  };
  await inTransaction(deps.sql, async (uow) => {
    await uow.sql`
      insert into roster_imports (id, organization_id, actor_user_id, format, dry_run, deactivate_missing, status, report,
                                  created_at)
      values (${report.id}, ${report.organizationId}, ${options.actorUserId}, ${report.format}, ${report.dryRun},
              ${report.deactivateMissing}, ${report.status}, ${uow.sql.json(report as never)}, ${report.createdAt})`;
    if (status === 'applied' || status === 'partially_applied') {
      await recordAuditEvent(
        deps.store,
        {
          eventType: 'roster_imported',
          organizationId: options.organizationId,
          actorUserId: options.actorUserId,
          occurredAt: deps.clock.now(),
          detail: auditDetail(report),
        },
        uow,
      );
    }
  });
  return report;
}

function withoutAdults(counts: RosterCounts): RosterCounts {
  const copy = structuredClone(counts);
  for (const kind of ['teachers', 'principals', 'parents'] as const) {
    copy[kind] = { create: 0, update: 0, deactivate: 0, unchanged: 0 };
  }
  return copy;
}

/** Codes and numbers only (audit details hold no free text). */
function auditDetail(report: RosterReport) {
  const detail: Record<string, string | number> = {
    importId: report.id,
    format: report.format,
    status: report.status,
    schoolsApplied: report.schools.filter((s) => s.outcome === 'applied').length,
  };
  for (const [kind, c] of Object.entries(report.counts)) {
    for (const [op, n] of Object.entries(c)) if (n > 0) detail[`${kind}_${op}`] = n;
  }
  return detail;
}

/** The academic year of an instant in a time zone; it turns on 1 August. */
function academicYearAt(at: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(at);
  const year = Number(day.slice(0, 4));
  return Number(day.slice(5, 7)) >= 8 ? `${year}-${year + 1}` : `${year - 1}-${year}`;
}
