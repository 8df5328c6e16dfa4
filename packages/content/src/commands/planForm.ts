import { formHash } from '../engine/contentHashes';
import { type FormProblems, formProblems, hasFormProblems } from '../engine/formProblems';
import { itemInsert } from '../engine/itemInsert';
import { newContentId } from '../ids';
import type { FormRow } from '../schemas/importBody';
import type { PassagePlan } from './planPassages';
import { accepted, type Insert, type PlanContext, type PlannedRow, rejected } from './planTypes';
import type { PreparedItem } from './prepareItems';
import { storedVersions } from './storedVersions';

export interface FormPlan {
  rows: PlannedRow[];
  passages: Insert[];
  form: Insert | null;
  items: Insert[];
  formProblems: FormProblems;
  screeningFormId: string | null;
  formRejected: boolean;
}

/** A refused form stores nothing, not even its passages: every row is rejected, its own reason first. */
function refuse(passages: PassagePlan, prepared: readonly PreparedItem[], problems: FormProblems): FormPlan {
  const rows: PlannedRow[] = [
    ...passages.rows.map((r) => ({
      ...r,
      id: null,
      passageId: null,
      unchanged: false,
      rejectReason: r.rejectReason ?? 'form_rejected',
    })),
    ...prepared.map((p) => rejected('item', p.index, p.row.external_id, p.reason ?? 'form_rejected')),
  ];
  return {
    rows,
    passages: [],
    form: null,
    items: [],
    formProblems: problems,
    screeningFormId: null,
    formRejected: true,
  };
}

const itemRow = (p: PreparedItem, id: string, unchanged: boolean): PlannedRow =>
  accepted('item', p.index, p.row.external_id, id, unchanged, p.passageId);

/**
 * A screening form is one unit: its structure (formProblems) and every row's checks must pass, or nothing of
 * it is stored. An unchanged form points at the stored form and its items; a changed one becomes the next
 * draft version with a new version of each of its items. Drafts of one form may wait side by side (each is
 * reviewed whole); approving an older one after a newer one went live is refused at approval.
 */
export async function planForm(
  ctx: PlanContext,
  form: FormRow,
  prepared: readonly PreparedItem[],
  passages: PassagePlan,
): Promise<FormPlan> {
  const positioned = prepared.filter((p) => p.role === 'screening' && p.row.measure_code && p.row.form_position);
  const problems = formProblems(
    positioned.map((p) => ({ measureCode: p.row.measure_code!, formPosition: p.row.form_position! })),
    form.grade,
    ctx.catalog,
  );
  const rowRejected = prepared.some((p) => p.reason !== null) || passages.rows.some((r) => r.rejectReason !== null);
  if (rowRejected || hasFormProblems(problems)) return refuse(passages, prepared, problems);

  const storedForm = (
    await storedVersions(ctx.tx, 'content_screening_forms', ctx.organizationId, [form.external_id])
  ).get(form.external_id);
  const hash = formHash({
    grade: form.grade,
    window: form.window,
    items: prepared.map((p) => ({ externalId: p.row.external_id, ...p.content })),
  });
  const newest = storedForm?.newest ?? null;
  if (newest && newest.contentHash === hash) {
    const existing = await ctx.tx<{ id: string; external_id: string }[]>`
      select id, external_id from content_items where screening_form_id = ${newest.id}`;
    const idOf = new Map(existing.map((r) => [r.external_id, r.id]));
    const rows = [...passages.rows, ...prepared.map((p) => itemRow(p, idOf.get(p.row.external_id)!, true))];
    const base = { formProblems: problems, screeningFormId: newest.id, formRejected: false };
    return { rows, passages: passages.inserts, form: null, items: [], ...base };
  }
  const storedItems = await storedVersions(
    ctx.tx,
    'content_items',
    ctx.organizationId,
    prepared.map((p) => p.row.external_id),
  );
  const formId = newContentId('frm');
  const formInsert: Insert = {
    id: formId,
    organization_id: ctx.organizationId,
    external_id: form.external_id,
    version: (storedForm?.maxVersion ?? 0) + 1,
    grade: form.grade,
    window_code: form.window,
    status: 'draft',
    content_hash: hash,
    import_batch_id: ctx.batchId,
  };
  const items: Insert[] = [];
  const rows: PlannedRow[] = [...passages.rows];
  for (const p of prepared) {
    const id = newContentId('itm');
    const version = (storedItems.get(p.row.external_id)?.maxVersion ?? 0) + 1;
    items.push(
      itemInsert(ctx, { id, externalId: p.row.external_id, version, content: p.content, screeningFormId: formId }),
    );
    rows.push(itemRow(p, id, false));
  }
  return {
    rows,
    passages: passages.inserts,
    form: formInsert,
    items,
    formProblems: problems,
    screeningFormId: formId,
    formRejected: false,
  };
}
