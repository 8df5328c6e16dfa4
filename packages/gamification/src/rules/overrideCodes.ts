/**
 * The override-code catalog: the closed list of reasons an adult may give when overriding an automatic
 * decision (spec: no free text on a write path that takes a reason). Nine codes, each valid in exactly one
 * scope; a route accepts only the codes of its own scope. Named `<Area>_<Meaning>_<NN>`, NN numbering the
 * whole catalog. Gamification owns the catalog because it has the first override route (badge rescind);
 * the session and training contexts import it from `@qiraa/gamification`.
 */
export const OVERRIDE_SCOPES = [
  /** POST /api/teachers/badges/{studentBadgeId}/rescind. */
  'gamification_rescind',
  /** A teacher includes a student held out at session accept (`do_not_decide_yet`). */
  'session_include',
  /** A teacher moves a student's training level against the engine's placement. */
  'training_level_override',
  /** A teacher closes a training progress alert without the step the alert asks for. */
  'training_alert_override',
] as const;
export type OverrideScope = (typeof OVERRIDE_SCOPES)[number];

export interface OverrideCode {
  code: string;
  scope: OverrideScope;
  /** Shown to the teacher in the picker; never shown to a student or a parent. */
  labelAr: string;
}

export const OVERRIDE_CODES = [
  { code: 'Ses_Include_Observed_01', scope: 'session_include', labelAr: 'لاحظ المعلّم جاهزية الطالب في الصف' },
  { code: 'Ses_Include_Evidence_02', scope: 'session_include', labelAr: 'تتوفّر أدلّة حديثة من تقييم صفّي' },
  { code: 'Ses_Include_Returning_03', scope: 'session_include', labelAr: 'عاد الطالب بعد غياب ويتابع مع صفّه' },
  { code: 'Ses_Include_Plan_04', scope: 'session_include', labelAr: 'ضمن خطّة دعم متّفق عليها' },
  { code: 'Gam_Award_Invalid_05', scope: 'gamification_rescind', labelAr: 'مُنحت الشارة عن حدث غير صحيح' },
  { code: 'Trn_Level_Easy_06', scope: 'training_level_override', labelAr: 'المستوى الحالي أسهل من قدرة الطالب' },
  { code: 'Trn_Level_Hard_07', scope: 'training_level_override', labelAr: 'المستوى الحالي يحتاج إلى تمهيد أكثر' },
  { code: 'Trn_Alert_Resolved_08', scope: 'training_alert_override', labelAr: 'عولج التنبيه داخل الصف' },
  { code: 'Trn_Alert_Inapplicable_09', scope: 'training_alert_override', labelAr: 'التنبيه لا ينطبق على الطالب' },
] as const satisfies readonly OverrideCode[];
export type OverrideCodeValue = (typeof OVERRIDE_CODES)[number]['code'];

/** The one gamification code (spec: Gamification endpoints, rescind). */
export const BADGE_RESCIND_CODE = 'Gam_Award_Invalid_05' satisfies OverrideCodeValue;

export const overrideCodesFor = (scope: OverrideScope): readonly OverrideCode[] =>
  OVERRIDE_CODES.filter((c) => c.scope === scope);

export type OverrideCodeCheck =
  | { ok: true; code: OverrideCode }
  /** `wrong_scope` also covers a code that is not in the catalog at all: it is not one of this scope's. */
  | { ok: false; reason: 'missing_override_code' | 'wrong_scope' };

/** Whether `code` may be given where `scope` is asked for. */
export function checkOverrideCode(code: string | null | undefined, scope: OverrideScope): OverrideCodeCheck {
  if (code === null || code === undefined || code.trim() === '') return { ok: false, reason: 'missing_override_code' };
  const found = OVERRIDE_CODES.find((c) => c.code === code);
  return found && found.scope === scope ? { ok: true, code: found } : { ok: false, reason: 'wrong_scope' };
}
