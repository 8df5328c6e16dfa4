import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import type { LanguageSafetyFilter } from '@qiraa/language-safety';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { type ItemContent, itemHash } from '../engine/contentHashes';
import { optionsReason } from '../engine/itemChecks';
import { newContentId } from '../ids';
import { type ItemRowDb, itemColumns } from '../queries/itemViews';
import { lockContentScope } from './lockContentScope';
import { takeItemBankPin } from './takeItemBankPin';

export interface ItemChanges {
  stemAr?: string;
  options?: { key: string; textAr: string }[];
  correctOptionKey?: string;
  hintAr?: string | null;
  explanationAr?: string | null;
}

export type EditItemResult =
  | { outcome: 'edited'; row: ItemRowDb; madeVersion: boolean; itemBankPinId: string | null }
  | { outcome: 'not_found' }
  | { outcome: 'stale' }
  | { outcome: 'form_item_not_duplicable' }
  | { outcome: 'invalid_state' }
  | { outcome: 'save_as_mismatch' }
  | { outcome: 'duplicate_option_keys' }
  | { outcome: 'correct_option_missing' }
  | { outcome: 'language_safety_blocked'; fields: string[] };

type SaveAs = 'in_place' | 'new_version';

/** How an edit lands, by the item's role and status (docs/content-import.md, "Editing an item"). */
function landing(row: ItemRowDb, saveAs: SaveAs | undefined): SaveAs | EditItemResult {
  if (row.content_role === 'screening') {
    // A form's items change only with a new form version (import): never duplicated, never live-edited.
    if (saveAs === 'new_version' || row.status === 'operational' || row.status === 'retired') {
      return { outcome: 'form_item_not_duplicable' };
    }
    return row.status === 'pending_review' ? 'in_place' : { outcome: 'invalid_state' };
  }
  if (row.status === 'pending_review') return saveAs === 'new_version' ? { outcome: 'save_as_mismatch' } : 'in_place';
  if (row.status === 'operational') return saveAs === 'in_place' ? { outcome: 'save_as_mismatch' } : 'new_version';
  return { outcome: 'invalid_state' };
}

function blockedFields(filter: LanguageSafetyFilter, c: ItemContent): string[] {
  const texts: [string, string | null][] = [
    ['stemAr', c.stemAr],
    ...c.options.map((o, i): [string, string] => [`options/${i}/textAr`, o.textAr]),
    ['hintAr', c.hintAr],
    ['explanationAr', c.explanationAr],
  ];
  return texts.filter(([, t]) => t !== null && filter.check(t, 'general').kind !== 'pass').map(([f]) => f);
}

const contentOf = (r: ItemRowDb): ItemContent => ({
  contentRole: r.content_role,
  grade: r.grade,
  subSkillId: r.sub_skill_id,
  itemPattern: r.item_pattern,
  measureCode: r.measure_code,
  formPosition: r.form_position,
  trainingLevel: r.training_level,
  bridgeTargetSkillId: r.bridge_target_skill_id,
  passageId: r.passage_id,
  stemAr: r.stem_ar,
  options: r.options,
  correctOptionKey: r.correct_option_key,
  hintAr: r.hint_ar,
  explanationAr: r.explanation_ar,
});

/**
 * Edits an item's student-facing content. A pending item changes in place (revision + 1); an operational
 * non-screening item gets a new operational version and the source is retired (a pin is taken). The
 * revision is compared under the row lock, so a concurrent edit is `stale`, never lost.
 */
export async function editItem(
  deps: { sql: Sql },
  input: { itemId: string; ifMatchRevision: number | null; changes: ItemChanges; saveAs?: SaveAs },
): Promise<EditItemResult> {
  const filter = await loadLanguageSafety(deps.sql);
  return inTransaction(deps.sql, async ({ sql: tx }): Promise<EditItemResult> => {
    const [scope] = await tx<{ organization_id: string | null }[]>`
      select organization_id from content_items where id = ${input.itemId}`;
    if (!scope) return { outcome: 'not_found' };
    // Scope lock before the row lock: the order imports and approvals take them in.
    await lockContentScope(tx, scope.organization_id);
    const [row] = await tx<ItemRowDb[]>`
      select ${itemColumns(tx)} from content_items where id = ${input.itemId} for update`;
    if (!row) return { outcome: 'not_found' };
    if (input.ifMatchRevision !== row.revision) return { outcome: 'stale' };
    const how = landing(row, input.saveAs);
    if (typeof how !== 'string') return how;

    const given = Object.entries(input.changes).filter(([, v]) => v !== undefined);
    const content: ItemContent = { ...contentOf(row), ...Object.fromEntries(given) };
    const optionProblem = optionsReason(content.options, content.correctOptionKey);
    if (optionProblem) return { outcome: optionProblem };
    const blocked = blockedFields(filter, content);
    if (blocked.length > 0) return { outcome: 'language_safety_blocked', fields: blocked };

    const editable = {
      stem_ar: content.stemAr,
      options: tx.json(content.options),
      correct_option_key: content.correctOptionKey,
      hint_ar: content.hintAr,
      explanation_ar: content.explanationAr,
      content_hash: itemHash(content),
    };
    if (how === 'in_place') {
      const [edited] = await tx<ItemRowDb[]>`
        update content_items set ${tx(editable)}, revision = revision + 1, updated_at = now()
        where id = ${row.id} returning ${itemColumns(tx)}`;
      return { outcome: 'edited', row: edited!, madeVersion: false, itemBankPinId: null };
    }
    const [top] = await tx<{ next: number }[]>`
      select max(version) + 1 as next from content_items
      where organization_id is not distinct from ${row.organization_id} and external_id = ${row.external_id}`;
    const id = newContentId('itm');
    await tx`update content_items set status = 'retired', updated_at = now() where id = ${row.id}`;
    const [created] = await tx<ItemRowDb[]>`
      insert into content_items
        (id, organization_id, external_id, version, content_role, content_purpose, grade, sub_skill_id,
         item_pattern, measure_code, training_level, bridge_target_skill_id, passage_id, stem_ar, options,
         correct_option_key, hint_ar, explanation_ar, status, content_hash, source_declared)
      values
        (${id}, ${row.organization_id}, ${row.external_id}, ${top!.next}, ${row.content_role}, ${row.content_purpose},
         ${row.grade}, ${row.sub_skill_id}, ${row.item_pattern}, ${row.measure_code}, ${row.training_level},
         ${row.bridge_target_skill_id}, ${row.passage_id}, ${editable.stem_ar}, ${editable.options},
         ${editable.correct_option_key}, ${editable.hint_ar}, ${editable.explanation_ar}, 'operational',
         ${editable.content_hash}, ${row.source_declared === null ? null : tx.json(row.source_declared as never)})
      returning ${itemColumns(tx)}`;
    const itemBankPinId = await takeItemBankPin(tx, 'item_edited');
    return { outcome: 'edited', row: created!, madeVersion: true, itemBankPinId };
  }) as Promise<EditItemResult>;
}
