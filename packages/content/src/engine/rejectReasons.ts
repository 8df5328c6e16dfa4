/**
 * The closed list of per-row `rejectReason` codes of an import report (docs/content-import.md explains each).
 * A row carries at most one: the first check it fails, in the order rowChecks run them.
 */
export const REJECT_REASONS = [
  // any entity
  'duplicate_external_id_in_batch',
  'language_safety_blocked',
  'pending_version_exists',
  // items
  'unknown_sub_skill',
  'sub_skill_not_in_grade',
  'unknown_item_pattern',
  'unknown_measure',
  'measure_not_in_grade',
  'duplicate_option_keys',
  'correct_option_missing',
  'training_level_required',
  'bridge_target_required',
  'bridge_target_not_allowed',
  'unknown_skill',
  'pattern_needs_passage',
  'passage_not_found',
  'passage_rejected',
  'form_fields_not_allowed',
  'screening_needs_form_import',
  // screening-form batches
  'screening_role_required',
  'form_item_fields_required',
  'form_id_mismatch',
  'form_grade_mismatch',
  'oral_measure_not_on_form',
  'form_rejected',
  // word lists (the word-list builder's checks, docs/word-lists.md)
  'no_word_list_cell',
  'word_count_out_of_range',
  'duplicate_words',
  'not_arabic_word',
  'untimed_with_duration',
  'duration_out_of_range',
  'words_per_row_out_of_range',
  'unknown_school',
] as const;

export type RejectReason = (typeof REJECT_REASONS)[number];
