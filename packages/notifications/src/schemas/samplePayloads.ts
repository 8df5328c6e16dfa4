import type { NotificationKind, NotificationPayload } from './notificationKinds';

const child = { studentId: '42', classId: 'cls_SAMPLE000001', studentName: 'سارة' };
const training = {
  ...child,
  alertId: 'tpa_SAMPLE000001',
  skillId: 'skl_phonemic_blending',
  skillLabelAr: 'دمج الأصوات',
  levelNumber: 2,
  levelNameAr: 'النموّ',
};

/** A valid payload of every kind (tests, the CLI's examples and the demo seed). */
export const SAMPLE_PAYLOADS: { [K in NotificationKind]: NotificationPayload<K> } = {
  q5_24h_ack: { ...child, alertId: 'alr_SAMPLE000001' },
  skill_alert_assigned: {
    ...child,
    alertId: 'alr_SAMPLE000002',
    skillId: 'skl_letter_sounds',
    skillLabelAr: 'أصوات الحروف',
  },
  student_alert_assigned: { ...child, alertId: 'alr_SAMPLE000003' },
  benchmark_profile_swap: { ...child, fromProfileCode: 'PR2-01', toProfileCode: 'PR2-03' },
  dismissal_expiry: { ...child, alertId: 'alr_SAMPLE000004' },
  plan_modification_suggestion: {
    ...child,
    planId: 'pln_SAMPLE000001',
    skillId: 'skl_fluency',
    skillLabelAr: 'الطلاقة القرائية',
  },
  cbm_alert_lifecycle: { ...child, alertId: 'alr_SAMPLE000005', lifecycle: 'opened' },
  parent_tsp_activation: { studentId: '42', studentName: 'سارة', planId: 'pln_SAMPLE000002' },
  lms_connection_revoked: { connectionId: 'lms_SAMPLE000001', provider: 'google_classroom' },
  training_no_progress: training,
  training_support_review_suggested: { ...training, daysAtLevel: 21 },
};
