import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '../codes';
import type { BadgeRule, RuleSet } from './ruleSet';

/** A badge text that agrees with every child in one wording. */
const same = (text: string) => ({ male: text, female: text, neutral: text }) as const;

const ALL = MASTERY_EVENT_SOURCE_KINDS;
const count =
  (kind: MasteryEventSourceKind, atLeast: number): BadgeRule['earned'] =>
  (facts) =>
    facts.bySourceKind[kind] >= atLeast;

/** Shared with later versions: the catalog did not change. */
export const badges: readonly BadgeRule[] = [
  {
    code: 'first_step',
    nameAr: same('الخطوة الأولى'),
    descriptionAr: {
      male: 'بدأتَ رحلتكَ في القراءة بخطوة جميلة.',
      female: 'بدأتِ رحلتكِ في القراءة بخطوة جميلة.',
      neutral: 'رحلتك في القراءة بدأت بخطوة جميلة.',
    },
    cites: ALL,
    earned: (f) => f.masteryCount >= 1,
  },
  {
    code: 'sound_explorer',
    nameAr: { male: 'مستكشف الأصوات', female: 'مستكشفة الأصوات', neutral: 'استكشاف الأصوات' },
    descriptionAr: {
      male: 'تقدّمتَ في ثلاث مهارات فرعية.',
      female: 'تقدّمتِ في ثلاث مهارات فرعية.',
      neutral: 'ثلاث من مهاراتك الفرعية في تقدّم.',
    },
    cites: ['subskill_state_up'],
    earned: count('subskill_state_up', 3),
  },
  {
    code: 'steady_reader',
    nameAr: { male: 'قارئ مثابر', female: 'قارئة مثابرة', neutral: 'مثابرة في القراءة' },
    descriptionAr: {
      male: 'قراءتكَ تتحسّن مرّة بعد مرّة.',
      female: 'قراءتكِ تتحسّن مرّة بعد مرّة.',
      neutral: 'قراءتك تتحسّن مرّة بعد مرّة.',
    },
    cites: ['cbm_trend_above_goal'],
    earned: count('cbm_trend_above_goal', 3),
  },
  {
    code: 'step_climber',
    nameAr: { male: 'متسلّق الخطوات', female: 'متسلّقة الخطوات', neutral: 'تسلّق الخطوات' },
    descriptionAr: {
      male: 'أنجزتَ خمس خطوات من خطّة التدريب.',
      female: 'أنجزتِ خمس خطوات من خطّة التدريب.',
      neutral: 'خمس خطوات من خطّة التدريب صارت خلفك.',
    },
    cites: ['bundle_step_goal_met'],
    earned: count('bundle_step_goal_met', 5),
  },
  {
    code: 'band_riser',
    nameAr: { male: 'صاعد الدرجات', female: 'صاعدة الدرجات', neutral: 'صعود الدرجات' },
    descriptionAr: {
      male: 'صعدتَ درجة جديدة في القراءة.',
      female: 'صعدتِ درجة جديدة في القراءة.',
      neutral: 'قراءتك صعدت درجة جديدة.',
    },
    cites: ['band_progression'],
    earned: count('band_progression', 1),
  },
  {
    code: 'band_star',
    nameAr: { male: 'نجم التقدّم', female: 'نجمة التقدّم', neutral: 'تقدّم لامع' },
    descriptionAr: {
      male: 'صعدتَ خمس درجات في القراءة.',
      female: 'صعدتِ خمس درجات في القراءة.',
      neutral: 'قراءتك صعدت خمس درجات.',
    },
    cites: ['band_progression'],
    earned: count('band_progression', 5),
  },
  {
    code: 'skill_grower',
    nameAr: same('مهارة تنمو'),
    descriptionAr: { male: 'نمت ثلاث من مهاراتكَ.', female: 'نمت ثلاث من مهاراتكِ.', neutral: 'نمت ثلاث من مهاراتك.' },
    cites: ['skill_status_transition'],
    earned: count('skill_status_transition', 3),
  },
  {
    code: 'domain_builder',
    nameAr: { male: 'باني المجالات', female: 'بانية المجالات', neutral: 'بناء المجالات' },
    descriptionAr: {
      male: 'تقدّمتَ في مجال كامل من مجالات القراءة.',
      female: 'تقدّمتِ في مجال كامل من مجالات القراءة.',
      neutral: 'في مجال كامل من مجالات القراءة نمت مهاراتك.',
    },
    cites: ['domain_status_escalation'],
    earned: count('domain_status_escalation', 1),
  },
  {
    code: 'journey_finisher',
    nameAr: { male: 'مُتمّ الرحلة', female: 'مُتمّة الرحلة', neutral: 'إتمام الرحلة' },
    descriptionAr: {
      male: 'أكملتَ رحلة تدريب كاملة.',
      female: 'أكملتِ رحلة تدريب كاملة.',
      neutral: 'رحلة تدريب كاملة صارت في رصيدك.',
    },
    cites: ['bundle_completion'],
    earned: count('bundle_completion', 1),
  },
  {
    code: 'journey_traveller',
    nameAr: same('رحّالة القراءة'),
    descriptionAr: {
      male: 'أكملتَ ثلاث رحلات تدريب.',
      female: 'أكملتِ ثلاث رحلات تدريب.',
      neutral: 'ثلاث رحلات تدريب صارت في رصيدك.',
    },
    cites: ['bundle_completion'],
    earned: count('bundle_completion', 3),
  },
  {
    code: 'stronger_each_day',
    nameAr: same('أقوى كل يوم'),
    descriptionAr: {
      male: 'صرتَ تقرأ بمساعدة أقلّ ثلاث مرّات.',
      female: 'صرتِ تقرئين بمساعدة أقلّ ثلاث مرّات.',
      neutral: 'ثلاث مرّات احتاجت قراءتك فيها إلى مساعدة أقلّ.',
    },
    cites: ['scaffold_tier_step_up'],
    earned: count('scaffold_tier_step_up', 3),
  },
  {
    code: 'five_days',
    nameAr: same('خمسة أيام من التعلّم'),
    descriptionAr: {
      male: 'تعلّمتَ خمسة أيام دراسية متتالية.',
      female: 'تعلّمتِ خمسة أيام دراسية متتالية.',
      neutral: 'خمسة أيام دراسية متتالية من التعلّم صارت في رصيدك.',
    },
    cites: ALL,
    earned: (f) => f.streakCurrent >= 5,
  },
  {
    code: 'ten_days',
    nameAr: same('عشرة أيام من التعلّم'),
    descriptionAr: {
      male: 'تعلّمتَ عشرة أيام دراسية متتالية.',
      female: 'تعلّمتِ عشرة أيام دراسية متتالية.',
      neutral: 'عشرة أيام دراسية متتالية من التعلّم صارت في رصيدك.',
    },
    cites: ALL,
    earned: (f) => f.streakCurrent >= 10,
  },
  {
    code: 'twenty_five_steps',
    nameAr: same('خمس وعشرون خطوة'),
    descriptionAr: {
      male: 'خطوتَ خمساً وعشرين خطوة في التعلّم.',
      female: 'خطوتِ خمساً وعشرين خطوة في التعلّم.',
      neutral: 'خمس وعشرون خطوة في التعلّم صارت في رصيدك.',
    },
    cites: ALL,
    earned: (f) => f.masteryCount >= 25,
  },
  {
    code: 'all_rounder',
    nameAr: { male: 'متعدّد المهارات', female: 'متعدّدة المهارات', neutral: 'مهارات متعدّدة' },
    descriptionAr: {
      male: 'تقدّمتَ في أربعة أنواع مختلفة من التعلّم.',
      female: 'تقدّمتِ في أربعة أنواع مختلفة من التعلّم.',
      neutral: 'في أربعة أنواع مختلفة من التعلّم نمت مهاراتك.',
    },
    cites: ALL,
    earned: (f) => ALL.filter((kind) => f.bySourceKind[kind] > 0).length >= 4,
  },
];

export const ruleSetV1: RuleSet = {
  version: 1,
  xpBySourceKind: {
    subskill_state_up: 20,
    cbm_trend_above_goal: 15,
    bundle_step_goal_met: 10,
    band_progression: 25,
    skill_status_transition: 20,
    domain_status_escalation: 30,
    bundle_completion: 40,
    scaffold_tier_step_up: 10,
  },
  sessionXpCap: 200,
  badgeBonusXp: 15,
  badgeBonusCapped: true,
  badges,
  avatarTierThresholds: [5, 15, 35, 75],
  streakGraceSchoolDays: 7,
  streakMilestones: [5, 10, 20],
};
