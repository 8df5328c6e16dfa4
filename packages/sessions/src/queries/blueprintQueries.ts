import type { AnySql } from '@qiraa/db';
import type { Caller } from '@qiraa/identity';
import type { Static } from 'typebox';
import { THEME_LABELS_AR, type Theme } from '../codes';
import type {
  BatchReportSchema,
  BatchRowSchema,
  BatchSummarySchema,
  BlueprintSchema,
} from '../schemas/blueprintSchemas';
import { visibleScope } from './blueprintScope';

export type Blueprint = Static<typeof BlueprintSchema>;
export type BatchReport = Static<typeof BatchReportSchema>;
export type BatchSummary = Static<typeof BatchSummarySchema>;
export type BatchRow = Static<typeof BatchRowSchema>;

export interface BlueprintRow {
  id: string;
  organization_id: string | null;
  external_id: string;
  version: number;
  batch_id: string;
  status: Blueprint['status'];
  grade: number;
  theme: Theme;
  sub_skill_ids: string[];
  target_minutes: number;
  title_ar: string;
  intro_ar: string;
  tags: string[];
  content_hash: string;
  created_at: Date;
  approved_at: Date | null;
}

export const blueprintOf = (r: BlueprintRow): Blueprint => ({
  id: r.id,
  externalId: r.external_id,
  version: r.version,
  organizationId: r.organization_id,
  status: r.status,
  batchId: r.batch_id,
  grade: r.grade,
  theme: r.theme,
  themeLabelAr: THEME_LABELS_AR[r.theme],
  subSkillIds: r.sub_skill_ids,
  targetMinutes: r.target_minutes,
  titleAr: r.title_ar,
  introAr: r.intro_ar,
  tags: r.tags,
  contentHash: r.content_hash,
  createdAt: r.created_at.toISOString(),
  approvedAt: r.approved_at?.toISOString() ?? null,
});

export async function blueprintById(sql: AnySql, id: string): Promise<BlueprintRow | null> {
  const [row] = await sql<BlueprintRow[]>`select * from ses_blueprints where id = ${id}`;
  return row ?? null;
}

interface BatchDbRow {
  id: string;
  organization_id: string | null;
  status: BatchSummary['status'];
  created_at: Date;
  approved_at: Date | null;
  approved_by: number | null;
  rows: BatchRow[];
}

const summaryOf = (b: BatchDbRow): BatchSummary => ({
  batchId: b.id,
  organizationId: b.organization_id,
  status: b.status,
  createdAt: b.created_at.toISOString(),
  approvedAt: b.approved_at?.toISOString() ?? null,
  approvedBy: b.approved_by === null ? null : Number(b.approved_by),
  counts: {
    accepted: b.rows.filter((r) => r.blueprintId !== null && !r.unchanged).length,
    unchanged: b.rows.filter((r) => r.unchanged).length,
    rejected: b.rows.filter((r) => r.rejectReason !== null).length,
  },
});

export async function batchReport(sql: AnySql, batchId: string): Promise<BatchReport | null> {
  const [b] = await sql<BatchDbRow[]>`select * from ses_blueprint_batches where id = ${batchId}`;
  return b ? { ...summaryOf(b), rows: b.rows } : null;
}

/** Whose a blueprint is (undefined when unknown; `organizationId` null: global). */
export async function blueprintOwner(
  sql: AnySql,
  blueprintId: string,
): Promise<{ organizationId: string | null } | undefined> {
  const [bp] = await sql<{ organization_id: string | null }[]>`
    select organization_id from ses_blueprints where id = ${blueprintId}`;
  return bp && { organizationId: bp.organization_id };
}

export async function batchScope(sql: AnySql, batchId: string): Promise<{ organizationId: string | null } | null> {
  const [b] = await sql<{ organization_id: string | null }[]>`
    select organization_id from ses_blueprint_batches where id = ${batchId}`;
  return b ? { organizationId: b.organization_id } : null;
}

/** Newest first; the cursor is the last entry's (createdAt, id). */
export async function listBatches(
  sql: AnySql,
  caller: Caller,
  page: { limit: number; after: { at: string; id: string } | null },
): Promise<{ batches: BatchSummary[]; nextCursor: string | null }> {
  const rows = await sql<BatchDbRow[]>`
    select * from ses_blueprint_batches
    where ${visibleScope(sql, caller)}
      ${page.after ? sql`and (date_trunc('milliseconds', created_at), id) < (${page.after.at}::timestamptz, ${page.after.id})` : sql``}
    order by date_trunc('milliseconds', created_at) desc, id desc limit ${page.limit + 1}`;
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return {
    batches: shown.map(summaryOf),
    nextCursor: more && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

export const encodeCursor = (at: Date, id: string) =>
  Buffer.from(JSON.stringify([at.toISOString(), id])).toString('base64url');

/** null when the text is not a cursor of ours. */
export function decodeCursor(cursor: string): { at: string; id: string } | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      !Number.isNaN(Date.parse(value[0]))
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // not base64 JSON: not ours
  }
  return null;
}
