import type { AnySql } from '@qiraa/db';
import type { ItemContent } from '../engine/contentHashes';
import { laterDuplicates } from '../engine/duplicateKeys';
import { itemRowReason, roleOf } from '../engine/itemChecks';
import { allPass } from '../engine/languageCheck';
import type { RejectReason } from '../engine/rejectReasons';
import type { ContentRole } from '../queries/catalogTypes';
import type { ItemRow } from '../schemas/importBody';
import { mapInSlices } from './inSlices';
import type { PassagePlan } from './planPassages';
import type { PlanContext } from './planTypes';

export interface PreparedItem {
  row: ItemRow;
  index: number;
  role: ContentRole;
  /** The first check the row fails (before versions); null when it passes them all. */
  reason: RejectReason | null;
  passageId: string | null;
  content: ItemContent;
}

/**
 * Existing passages an item may link to by external id: visible to the batch's scope (its own, then
 * global), newest operational or pending version.
 */
async function existingPassages(tx: AnySql, organizationId: string | null, externalIds: string[]) {
  if (externalIds.length === 0) return new Map<string, string>();
  const rows = await tx<{ external_id: string; id: string }[]>`
    select distinct on (external_id) external_id, id from content_passages
    where external_id = any(${externalIds}) and status in ('operational', 'pending_review')
      and (organization_id is null or organization_id is not distinct from ${organizationId})
    order by external_id, (organization_id is null), version desc`;
  return new Map(rows.map((r) => [r.external_id, r.id]));
}

const studentTexts = (row: ItemRow) => [
  row.stem_ar,
  ...row.options.map((o) => o.text_ar),
  row.hint_ar,
  row.explanation_ar,
];

export const itemContentOf = (row: ItemRow, role: ContentRole, passageId: string | null): ItemContent => ({
  contentRole: role,
  grade: row.grade,
  subSkillId: row.sub_skill_id,
  itemPattern: row.item_pattern,
  measureCode: row.measure_code ?? null,
  formPosition: role === 'screening' ? (row.form_position ?? null) : null,
  trainingLevel: row.training_level ?? null,
  bridgeTargetSkillId: row.bridge_target_skill_id ?? null,
  passageId,
  stemAr: row.stem_ar,
  options: row.options.map((o) => ({ key: o.key, textAr: o.text_ar })),
  correctOptionKey: row.correct_option_key,
  hintAr: row.hint_ar ?? null,
  explanationAr: row.explanation_ar ?? null,
});

/**
 * Item rows through every check but versions: duplicates, catalog, passage link, language safety (in slices:
 * the language check is the costly part of a large import).
 */
export async function prepareItems(
  ctx: PlanContext,
  items: readonly ItemRow[],
  passages: PassagePlan,
  form: Parameters<typeof itemRowReason>[2],
): Promise<PreparedItem[]> {
  const duplicates = laterDuplicates(items.map((r) => r.external_id));
  const wanted = items
    .map((r) => r.passage_external_id)
    .filter((e): e is string => e != null && !passages.idByExternalId.has(e) && !passages.rejectedExternalIds.has(e));
  const existing = await existingPassages(ctx.tx, ctx.organizationId, [...new Set(wanted)]);
  return mapInSlices(items, (row, index) => {
    const role = roleOf(row, ctx.kind);
    const link = row.passage_external_id ?? null;
    const passageId = link === null ? null : (passages.idByExternalId.get(link) ?? existing.get(link) ?? null);
    const reason: RejectReason | null = duplicates.has(index)
      ? 'duplicate_external_id_in_batch'
      : (itemRowReason(row, ctx.kind, form, ctx.catalog) ??
        (link !== null && passages.rejectedExternalIds.has(link) ? 'passage_rejected' : null) ??
        (link !== null && passageId === null ? 'passage_not_found' : null) ??
        (allPass(ctx.filter, studentTexts(row)) ? null : 'language_safety_blocked'));
    return { row, index, role, reason, passageId, content: itemContentOf(row, role, passageId) };
  });
}
