import { ATTEMPT_KINDS, type AttemptKind } from '@qiraa/assessment';

/**
 * The kinds of session a report lists, the `{kind}` of the detail route: the assessment's attempt kinds, the
 * same words the void body takes (`digital_sitting` covers window sittings and re-diagnostics, told apart by
 * `mode`). Training days join as `training_day` when the training context exists.
 */
export const SESSION_KINDS: readonly AttemptKind[] = ATTEMPT_KINDS;
export type SessionKind = AttemptKind;
