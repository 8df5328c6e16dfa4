/** The session's own stream: every online answer of its recipients, and each recipient's completion. */
export const sessionStream = (sessionId: string) => `session-${sessionId}`;

export const SESSION_ANSWER_RECORDED = 'SessionAnswerRecorded';
export const SESSION_SLOT_COMPLETED = 'SessionSlotCompleted';

/**
 * The session stream's events, typed: `type` discriminates `data` (docs/architecture.md, "Typed events").
 * Add an event here with its constant and its data interface.
 */
export type SessionEvent =
  | { type: typeof SESSION_ANSWER_RECORDED; data: SessionAnswerRecorded }
  | { type: typeof SESSION_SLOT_COMPLETED; data: SessionSlotCompleted };

export interface SessionAnswerRecorded {
  answerId: string;
  sessionId: string;
  slotId: string;
  studentId: number;
  organizationId: string;
  itemId: string;
  subSkillId: string;
  /** 1-based place of the item in the slot's frozen list. */
  position: number;
  selectedOptionKey: string;
  correct: boolean;
  total: number;
  answeredAt: string;
}

export interface SessionSlotCompleted {
  sessionId: string;
  slotId: string;
  studentId: number;
  organizationId: string;
  total: number;
  correct: number;
  /** Per target sub-skill: the answers the bundle-progress credit reads (BPR-01, session trigger). */
  bySubSkill: { subSkillId: string; answered: number; correct: number }[];
  completedAt: string;
}
