import { MASTERY_EVENT_SOURCE_KINDS, type MasteryEventSourceKind } from '../sourceKinds';
import type { BadgeRule, RuleSet } from './ruleSet';

const ALL = MASTERY_EVENT_SOURCE_KINDS;
const count =
  (kind: MasteryEventSourceKind, atLeast: number): BadgeRule['earned'] =>
  (facts) =>
    facts.bySourceKind[kind] >= atLeast;

const badges: BadgeRule[] = [
  {
    code: 'first_step',
    nameAr: 'الخطوة الأولى',
    descriptionAr: 'بدأتَ رحلتك في القراءة بخطوة جميلة.',
    cites: ALL,
    earned: (f) => f.masteryCount >= 1,
  },
  {
    code: 'sound_explorer',
    nameAr: 'مستكشف الأصوات',
    descriptionAr: 'تقدّمتَ في ثلاث مهارات فرعية.',
    cites: ['subskill_state_up'],
    earned: count('subskill_state_up', 3),
  },
  {
    code: 'steady_reader',
    nameAr: 'قارئ مثابر',
    descriptionAr: 'قراءتك تتحسّن مرّة بعد مرّة.',
    cites: ['cbm_trend_above_goal'],
    earned: count('cbm_trend_above_goal', 3),
  },
  {
    code: 'step_climber',
    nameAr: 'متسلّق الخطوات',
    descriptionAr: 'أنجزتَ خمس خطوات من خطّة التدريب.',
    cites: ['bundle_step_goal_met'],
    earned: count('bundle_step_goal_met', 5),
  },
  {
    code: 'band_riser',
    nameAr: 'صاعد الدرجات',
    descriptionAr: 'صعدتَ درجة جديدة في القراءة.',
    cites: ['band_progression'],
    earned: count('band_progression', 1),
  },
  {
    code: 'band_star',
    nameAr: 'نجم التقدّم',
    descriptionAr: 'صعدتَ خمس درجات في القراءة.',
    cites: ['band_progression'],
    earned: count('band_progression', 5),
  },
  {
    code: 'skill_grower',
    nameAr: 'مهارة تنمو',
    descriptionAr: 'نمت ثلاث من مهاراتك.',
    cites: ['skill_status_transition'],
    earned: count('skill_status_transition', 3),
  },
  {
    code: 'domain_builder',
    nameAr: 'باني المجالات',
    descriptionAr: 'تقدّمتَ في مجال كامل من مجالات القراءة.',
    cites: ['domain_status_escalation'],
    earned: count('domain_status_escalation', 1),
  },
  {
    code: 'journey_finisher',
    nameAr: 'مُتمّ الرحلة',
    descriptionAr: 'أكملتَ رحلة تدريب كاملة.',
    cites: ['bundle_completion'],
    earned: count('bundle_completion', 1),
  },
  {
    code: 'journey_traveller',
    nameAr: 'رحّالة القراءة',
    descriptionAr: 'أكملتَ ثلاث رحلات تدريب.',
    cites: ['bundle_completion'],
    earned: count('bundle_completion', 3),
  },
  {
    code: 'stronger_each_day',
    nameAr: 'أقوى كل يوم',
    descriptionAr: 'صرتَ تقرأ بمساعدة أقلّ ثلاث مرّات.',
    cites: ['scaffold_tier_step_up'],
    earned: count('scaffold_tier_step_up', 3),
  },
  {
    code: 'five_days',
    nameAr: 'خمسة أيام من التعلّم',
    descriptionAr: 'تعلّمتَ خمسة أيام دراسية متتالية.',
    cites: ALL,
    earned: (f) => f.streakCurrent >= 5,
  },
  {
    code: 'ten_days',
    nameAr: 'عشرة أيام من التعلّم',
    descriptionAr: 'تعلّمتَ عشرة أيام دراسية متتالية.',
    cites: ALL,
    earned: (f) => f.streakCurrent >= 10,
  },
  {
    code: 'twenty_five_steps',
    nameAr: 'خمس وعشرون خطوة',
    descriptionAr: 'خطوتَ خمساً وعشرين خطوة في التعلّم.',
    cites: ALL,
    earned: (f) => f.masteryCount >= 25,
  },
  {
    code: 'all_rounder',
    nameAr: 'متعدّد المهارات',
    descriptionAr: 'تقدّمتَ في أربعة أنواع مختلفة من التعلّم.',
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
  badges,
  avatarTierThresholds: [5, 15, 35, 75],
  streakGraceSchoolDays: 7,
  streakMilestones: [5, 10, 20],
};
