import type { AnySql } from '@qiraa/db';
import type { Caller } from '@qiraa/identity';
import type { FormProblems } from '../engine/formProblems';
import type { AgreementSignoff, SourceDeclared } from '../schemas/importBody';
import type { BatchSummary, ImportReport, ReportRow } from '../schemas/reportSchema';
import { visibleScope } from '../scope';
import type { ContentKind } from './catalogTypes';

export type { BatchSummary, ImportReport } from '../schemas/reportSchema';

/** Page size of `GET /api/items/import`: 20 by default, at most 100. */
export const BATCH_PAGE_DEFAULT = 20;
export const BATCH_PAGE_MAX = 100;

interface BatchRow {
  id: string;
  organization_id: string | null;
  content_kind: ContentKind;
  source_declared: SourceDeclared | null;
  agreement_signoff: AgreementSignoff | null;
  status: 'pending_review' | 'approved';
  row_count: number;
  accepted_count: number;
  rejected_count: number;
  unchanged_count: number;
  form_problems: FormProblems | null;
  screening_form_id: string | null;
  form_rejected: boolean | null;
  created_by: string | null;
  created_at: Date;
  created_key: string;
  approved_by: string | null;
  approved_at: Date | null;
  approval: { retired?: string[] } | null;
}

const columns = (sql: AnySql) => sql`
  id, organization_id, content_kind, source_declared, agreement_signoff, status, row_count, accepted_count,
  rejected_count, unchanged_count, form_problems, screening_form_id, form_rejected, created_by, created_at,
  created_at::text as created_key, approved_by, approved_at, approval`;

const summaryOf = (b: BatchRow): BatchSummary => ({
  batchId: b.id,
  contentKind: b.content_kind,
  organizationId: b.organization_id,
  sourceDeclared: b.source_declared,
  agreementSignoff: b.agreement_signoff,
  status: b.status,
  createdAt: b.created_at.toISOString(),
  createdBy: b.created_by === null ? null : Number(b.created_by),
  counts: {
    rows: b.row_count,
    accepted: b.accepted_count,
    rejected: b.rejected_count,
    unchanged: b.unchanged_count,
  },
  ...(b.content_kind === 'screening_form'
    ? {
        formProblems: b.form_problems ?? {
          missingPositions: [],
          duplicatePositions: [],
          countMismatch: [],
          measuresNotInGrade: [],
        },
        screeningFormId: b.screening_form_id,
        formRejected: b.form_rejected ?? false,
      }
    : {}),
  approvedAt: b.approved_at?.toISOString() ?? null,
  approvedBy: b.approved_by === null ? null : Number(b.approved_by),
  retired: b.approval?.retired ?? [],
});

/** The batch row itself (scope and status), for the routes' tenant check. */
export async function batchScope(sql: AnySql, batchId: string) {
  const [row] = await sql<{ organization_id: string | null; content_kind: ContentKind }[]>`
    select organization_id, content_kind from content_import_batches where id = ${batchId}`;
  return row ? { organizationId: row.organization_id, contentKind: row.content_kind } : null;
}

/** The full report of one batch, rows in body order (passages, items, prompts, lists); null when unknown. */
export async function batchReport(sql: AnySql, batchId: string): Promise<ImportReport | null> {
  const [batch] = await sql<BatchRow[]>`select ${columns(sql)} from content_import_batches where id = ${batchId}`;
  if (!batch) return null;
  const rows = await sql<ReportRow[]>`
    select entity, row_index as "rowIndex", external_id as "externalId", passage_id as "passageId",
           word_list_id as "wordListId", scaffold_prompt_id as "scaffoldPromptId", item_bank_id as "itemBankId",
           reject_reason as "rejectReason", unchanged
    from content_import_rows where batch_id = ${batchId}
    order by array_position(array['passage', 'item', 'scaffold_prompt', 'word_list'], entity), row_index`;
  return { ...summaryOf(batch), rows: [...rows] };
}

/** Opaque cursor: the last batch's (createdAt at full precision, id). */
interface Cursor {
  c: string;
  i: string;
}

/** The cursor, or null when it is not one of ours (the route answers 422 invalid_cursor). */
export function decodeBatchCursor(cursor: string): Cursor | null {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof c.c !== 'string' || Number.isNaN(Date.parse(c.c))) return null;
    if (typeof c.i !== 'string' || !/^bat_[A-Za-z0-9]{14}$/.test(c.i)) return null;
    return { c: c.c, i: c.i };
  } catch {
    return null;
  }
}

const encodeCursor = (b: BatchRow) =>
  Buffer.from(JSON.stringify({ c: b.created_key, i: b.id } satisfies Cursor)).toString('base64url');

/** Batches of one kind the caller can see (own organization and global; all for the super-admin), newest first. */
export async function listBatches(
  sql: AnySql,
  caller: Caller,
  filter: { contentKind: ContentKind },
  page: { limit: number; after: Cursor | null },
): Promise<{ batches: BatchSummary[]; nextCursor: string | null }> {
  const after = page.after;
  const rows = await sql<BatchRow[]>`
    select ${columns(sql)} from content_import_batches
    where content_kind = ${filter.contentKind} and ${visibleScope(sql, caller)}
      ${after ? sql`and (created_at, id) < (${after.c}::timestamptz, ${after.i})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit + 1}`;
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown.at(-1);
  return { batches: shown.map(summaryOf), nextCursor: more && last ? encodeCursor(last) : null };
}
