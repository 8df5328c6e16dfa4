import { PersonName } from '@qiraa/kernel';
import { type Static, type TSchema, Type } from 'typebox';

/**
 * Payload schemas, one per catalog kind. No free-text field: ids, closed codes, names the system holds
 * (student names, skill and level labels) and numbers. A child's name follows the roster's one PersonName rule
 * (packages/kernel/src/personName.ts), so a name the roster took is never refused here; labels are letters,
 * marks and single spaces.
 */
const Id = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'an id of the system' });
const StudentId = Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'the child’s user id, numeric string' });
const Name = Type.String({
  pattern: '^[\\p{L}\\p{M}]+(?: [\\p{L}\\p{M}]+)*$',
  maxLength: 80,
  description: 'a label held by the system (letters and single spaces)',
});

const child = { studentId: StudentId, classId: Id, studentName: PersonName };
const training = {
  ...child,
  alertId: Id,
  skillId: Id,
  skillLabelAr: Name,
  levelNumber: Type.Integer({ minimum: 1, maximum: 4 }),
  levelNameAr: Name,
};

export const NOTIFICATION_PAYLOADS = {
  q5_24h_ack: Type.Object({ ...child, alertId: Id }),
  skill_alert_assigned: Type.Object({ ...child, alertId: Id, skillId: Id, skillLabelAr: Name }),
  student_alert_assigned: Type.Object({ ...child, alertId: Id }),
  benchmark_profile_swap: Type.Object({
    ...child,
    fromProfileCode: Type.String({ pattern: '^PR[0-9]-[0-9]{2}$' }),
    toProfileCode: Type.String({ pattern: '^PR[0-9]-[0-9]{2}$' }),
  }),
  dismissal_expiry: Type.Object({ ...child, alertId: Id }),
  plan_modification_suggestion: Type.Object({ ...child, planId: Id, skillId: Id, skillLabelAr: Name }),
  cbm_alert_lifecycle: Type.Object({
    ...child,
    alertId: Id,
    lifecycle: Type.Union([Type.Literal('opened'), Type.Literal('escalated'), Type.Literal('closed')]),
  }),
  parent_tsp_activation: Type.Object({ studentId: StudentId, studentName: PersonName, planId: Id }),
  lms_connection_revoked: Type.Object({
    connectionId: Id,
    provider: Type.Union([Type.Literal('google_classroom'), Type.Literal('microsoft_teams'), Type.Literal('moodle')]),
  }),
  training_no_progress: Type.Object(training),
  /**
   * The long stay (TAL-02, 21 days at level 1): the spec's "for the long stay, daysAtLevel", the calendar days
   * since the stay's first school day.
   */
  training_support_review_suggested: Type.Object({
    ...training,
    daysAtLevel: Type.Integer({ minimum: 1, maximum: 1000 }),
  }),
} satisfies Record<string, TSchema>;

export type NotificationKind = keyof typeof NOTIFICATION_PAYLOADS;
export type NotificationPayload<K extends NotificationKind> = Static<(typeof NOTIFICATION_PAYLOADS)[K]>;
export const NOTIFICATION_KINDS = Object.keys(NOTIFICATION_PAYLOADS) as NotificationKind[];
export const isNotificationKind = (kind: string): kind is NotificationKind =>
  Object.hasOwn(NOTIFICATION_PAYLOADS, kind);

/** The two kinds raised by training alerts, with sourceEntityType `training_progress_alert`. */
export const TRAINING_KINDS = ['training_no_progress', 'training_support_review_suggested'] as const;
export const TRAINING_SOURCE_ENTITY_TYPE = 'training_progress_alert';

export const SEVERITIES = ['info', 'action_required', 'urgent'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const DELIVERY_STATES = ['delivered_in_app', 'read', 'dismissed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
