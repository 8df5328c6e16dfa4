import { ATTEMPT_KINDS, type AttemptKind } from '@qiraa/assessment';

/**
 * The kinds of session a report lists, the `{kind}` of the detail route: the assessment's attempt kinds, the
 * same words the void body takes (`digital_sitting` covers window sittings and re-diagnostics, told apart by
 * `mode`). Training days open in the detail as `training_day` (DETAIL_KINDS).
 */
export const SESSION_KINDS: readonly AttemptKind[] = ATTEMPT_KINDS;
export type SessionKind = AttemptKind;

/**
 * The `{kind}` of the detail route: the attempt kinds and `training_day` (a day of practice, whose detail is
 * its `trainingGroups`). The results list stays the assessment's sessions; training days are listed by
 * `GET /api/practice/students/{studentId}/training-sessions`, whose ids open here.
 */
export const DETAIL_KINDS = [...ATTEMPT_KINDS, 'training_day'] as const;
export type DetailKind = AttemptKind | 'training_day';
