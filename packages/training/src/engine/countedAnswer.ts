import type { TrainingRules } from '../rules/trainingRules';

/** Why an answer does not count towards a level move (closed list, docs/training.md). */
export const NOT_COUNTED_REASONS = [
  'second_try',
  'hinted',
  'rapid',
  'support_step',
  'exit_question',
  'repeated_item',
] as const;
export type NotCountedReason = (typeof NOT_COUNTED_REASONS)[number];

export type AnswerRole = 'ordinary' | 'retry' | 'support' | 'exit';

export interface AnswerFacts {
  role: AnswerRole;
  /** The item was already answered earlier the same day (a repeat is excluded). */
  repeatedToday: boolean;
  hinted: boolean;
  responseMs: number;
}

/**
 * Counted answers: independent first tries (role `ordinary`), without a hint, not excluded (no repeat of an
 * item already answered that day, no support step, no closing question) and not rapid (faster than the
 * rule set's response-time floor). The first failing reason in this order is the one recorded.
 */
export function countedAnswer(
  rules: TrainingRules,
  a: AnswerFacts,
): { counted: true; reason: null } | { counted: false; reason: NotCountedReason } {
  const no = (reason: NotCountedReason) => ({ counted: false as const, reason });
  if (a.role === 'retry') return no('second_try');
  if (a.role === 'support') return no('support_step');
  if (a.role === 'exit') return no('exit_question');
  if (a.hinted) return no('hinted');
  if (a.repeatedToday) return no('repeated_item');
  if (a.responseMs < rules.counted.rapidFloorMs) return no('rapid');
  return { counted: true, reason: null };
}
