import { type Catalog, type ContentKind, type ContentRole, inGradeRange } from '../queries/catalogTypes';
import type { FormRow, ItemRow } from '../schemas/importBody';
import type { RejectReason } from './rejectReasons';

/** An item row's role: as written, else screening in a form batch and target_training elsewhere. */
export const roleOf = (row: ItemRow, kind: ContentKind): ContentRole =>
  row.content_role ?? (kind === 'screening_form' ? 'screening' : 'target_training');

/** Option keys unique, the correct key among them (the import rows and item edits share this rule). */
export function optionsReason(
  options: readonly { key: string }[],
  correctOptionKey: string,
): 'duplicate_option_keys' | 'correct_option_missing' | null {
  const keys = options.map((o) => o.key);
  if (new Set(keys).size !== keys.length) return 'duplicate_option_keys';
  if (!keys.includes(correctOptionKey)) return 'correct_option_missing';
  return null;
}

function catalogReason(row: ItemRow, catalog: Catalog): RejectReason | null {
  const subSkill = catalog.subSkillById.get(row.sub_skill_id);
  if (!subSkill) return 'unknown_sub_skill';
  if (!inGradeRange(subSkill, row.grade)) return 'sub_skill_not_in_grade';
  if (!catalog.patternByCode.has(row.item_pattern)) return 'unknown_item_pattern';
  if (row.measure_code != null) {
    const measure = catalog.measureByCode.get(row.measure_code);
    if (!measure) return 'unknown_measure';
    if (!inGradeRange(measure, row.grade)) return 'measure_not_in_grade';
  }
  return null;
}

function screeningReason(row: ItemRow, kind: ContentKind, form: FormRow | null, catalog: Catalog) {
  if (kind !== 'screening_form' || !form) return 'screening_needs_form_import';
  if (row.measure_code == null || row.form_id == null || row.form_position == null) return 'form_item_fields_required';
  if (row.form_id !== form.external_id) return 'form_id_mismatch';
  if (row.grade !== form.grade) return 'form_grade_mismatch';
  if (catalog.measureByCode.get(row.measure_code)?.formItemCount == null) return 'oral_measure_not_on_form';
  if (row.bridge_target_skill_id != null) return 'bridge_target_not_allowed';
  return null;
}

function practiceReason(row: ItemRow, role: ContentRole, kind: ContentKind, catalog: Catalog): RejectReason | null {
  if (kind === 'screening_form') return 'screening_role_required';
  if (row.form_id != null || row.form_position != null) return 'form_fields_not_allowed';
  if (role === 'target_training' && row.training_level == null) return 'training_level_required';
  if (role === 'bridge_practice' && row.bridge_target_skill_id == null) return 'bridge_target_required';
  if (role !== 'bridge_practice' && row.bridge_target_skill_id != null) return 'bridge_target_not_allowed';
  if (row.bridge_target_skill_id != null && !catalog.skillById.has(row.bridge_target_skill_id)) return 'unknown_skill';
  return null;
}

/**
 * The checks of one item row that need only the row, the batch kind and form, and the catalog (passage
 * links, language safety and versions are checked by the planner). The first failing check wins.
 */
export function itemRowReason(
  row: ItemRow,
  kind: ContentKind,
  form: FormRow | null,
  catalog: Catalog,
): RejectReason | null {
  const role = roleOf(row, kind);
  const reason =
    catalogReason(row, catalog) ??
    optionsReason(row.options, row.correct_option_key) ??
    (role === 'screening' ? screeningReason(row, kind, form, catalog) : practiceReason(row, role, kind, catalog));
  if (reason) return reason;
  if (catalog.patternByCode.get(row.item_pattern)?.needsPassage && row.passage_external_id == null) {
    return 'pattern_needs_passage';
  }
  return null;
}
