/**
 * Closed code lists of the sessions context (docs/sessions.md). Versioned with the code: a new code is a
 * code change, never free text from a request.
 */

/** Session themes; a blueprint names one, a draft may replace it with another (PATCH edit). */
export const THEMES = ['animals', 'family', 'school', 'market', 'nature', 'sea', 'food', 'travel'] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_LABELS_AR: Record<Theme, string> = {
  animals: 'الحيوانات',
  family: 'العائلة',
  school: 'المدرسة',
  market: 'السوق',
  nature: 'الطبيعة',
  sea: 'البحر',
  food: 'الطعام',
  travel: 'السفر',
};

/** Spec: Session states. `filter_failed` is reserved and never written. */
export const SESSION_STATES = ['draft', 'previewed', 'delivered', 'cancelled', 'filter_failed'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const DELIVERY_MODES = ['online', 'printable', 'mixed'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const MEDIA = ['online', 'printable'] as const;
export type Medium = (typeof MEDIA)[number];

/** Why a student of the class has no slot at accept. */
export const HELD_OUT_REASONS = ['do_not_decide_yet'] as const;
export type HeldOutReason = (typeof HELD_OUT_REASONS)[number];

/**
 * The fixed override codes a teacher picks to include a held-out student (no free text, spec: Sessions and
 * blueprints): the teacher has seen the child read recently; the child asked to join the group; the support
 * team agreed; the child practises the same sub-skill in class anyway.
 */
export const OVERRIDE_CODES = [
  'teacher_observed_need',
  'whole_class_activity',
  'support_team_agreed',
  'recent_classroom_evidence',
] as const;
export type OverrideCode = (typeof OVERRIDE_CODES)[number];

/** Blueprint tags: a closed list too (they are filtered on and shown). */
export const BLUEPRINT_TAGS = [
  'phonics',
  'fluency',
  'comprehension',
  'spelling',
  'morphology',
  'vocabulary',
  'review',
  'game',
] as const;
export type BlueprintTag = (typeof BLUEPRINT_TAGS)[number];

/** Why an import row was refused. */
export const BLUEPRINT_REJECT_REASONS = [
  'unknown_sub_skill',
  'sub_skill_not_in_grade',
  'language_safety_blocked',
  'duplicate_external_id',
] as const;
export type BlueprintRejectReason = (typeof BLUEPRINT_REJECT_REASONS)[number];

/** Support level weights for the recommended list (docs/sessions.md, rule SRK-01). */
export const SUPPORT_WEIGHTS = { beginning: 3, developing: 2 } as const;
