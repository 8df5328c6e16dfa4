/** A teacher send (assign-training), on its own stream `trainingsend-<sendId>` (docs/training-alerts.md). */
export const TRAINING_SENT = 'TrainingSent';
export const sendStream = (sendId: string) => `trainingsend-${sendId}`;

export interface TrainingSent {
  sendId: string;
  organizationId: string;
  /** The teacher the send is from: the caller, or the teacher a staff member sends for. */
  teacherUserId: number;
  /** Who made the request (the teacher, or the staff member sending on behalf). */
  sentByUserId: number;
  classId: string | null;
  groupId: string | null;
  /** A catalog skill, or null for the children's current training skills. */
  skillId: string | null;
  /** The children it reached: the class's active roster or the group's members when sent. */
  studentIds: number[];
  /** The end of the window the children may train in. */
  untilAt: string;
  sentAt: string;
}
