import { deterministicEventId } from '@qiraa/eventstore';
import type { AlertEvidence, TrainingAlertKind } from '../rules/alertRules';

/**
 * The training alert events, each alert on its own stream `trainingalert-<alertId>` (docs/training-alerts.md).
 * Raised and resolved carry deterministic ids, so a re-delivered batch of the reactor appends nothing twice.
 */
export const TRAINING_ALERT_RAISED = 'TrainingAlertRaised';
export const TRAINING_ALERT_ACKNOWLEDGED = 'TrainingAlertAcknowledged';
export const TRAINING_ALERT_RESOLVED = 'TrainingAlertResolved';
export const TRAINING_ALERT_EVENT_TYPES = [
  TRAINING_ALERT_RAISED,
  TRAINING_ALERT_ACKNOWLEDGED,
  TRAINING_ALERT_RESOLVED,
] as const;

export const alertStream = (alertId: string) => `trainingalert-${alertId}`;

/** One alert of each kind per stay at a level: the student, the skill, the level event that began the stay. */
export const alertIdOf = (studentId: number, skillId: string, levelEventId: string, kind: TrainingAlertKind) =>
  deterministicEventId('training-alert', studentId, skillId, levelEventId, kind);
export const resolvedEventIdOf = (alertId: string) => deterministicEventId('training-alert-resolved', alertId);

export interface TrainingAlertRaised {
  alertId: string;
  studentId: number;
  organizationId: string | null;
  skillId: string;
  /** The measure the skill's level rests on (from the level event). */
  measureCode: string | null;
  levelNumber: number;
  kind: TrainingAlertKind;
  ruleId: string;
  ruleSetVersion: string;
  /** The level event that began the stay the alert is about. */
  levelEventId: string;
  /** The TrainingDayEnded event whose day made the rule hold. */
  dayEventId: string;
  evidence: AlertEvidence;
  raisedAt: string;
}

export interface TrainingAlertAcknowledged {
  alertId: string;
  studentId: number;
  organizationId: string | null;
  acknowledgedBy: number;
  acknowledgedAt: string;
}

export interface TrainingAlertResolved {
  alertId: string;
  studentId: number;
  organizationId: string | null;
  /** TAL-03: the skill's level changed. */
  ruleId: string;
  ruleSetVersion: string;
  /** The level event that ended the stay. */
  levelEventId: string;
  resolvedAt: string;
}
