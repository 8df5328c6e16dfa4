import type { Projection } from '@qiraa/projections';
import { attemptsProjection } from './attemptsProjection';
import { sittingsProjection } from './sittingsProjection';

/**
 * Every read model of the assessment context. `recordEvidence` applies all of them inline to the events a
 * command appends (read-your-writes); the runner applies them again (idempotent).
 */
export const ASSESSMENT_PROJECTIONS: readonly Projection[] = [attemptsProjection, sittingsProjection];

export { attemptsProjection, sittingsProjection };
