export { applyInline } from './applyInline';
export {
  type BullmqOptions,
  bullmqProjector,
  PROJECTION_QUEUE,
  type ProjectionWorker,
  startProjectionWorker,
} from './bullmq';
export { type CatchUpResult, catchUp } from './catchUp';
export { catchUpAll } from './catchUpAll';
export { type InProcessOptions, inProcessProjector } from './inProcessProjector';
export { defineProjection, eventsOfType, type Projection, type ProjectionContext } from './projection';
export { type ProjectionFailure, type ProjectionHealth, projectionHealth } from './projectionHealth';
export { projectionStalls, type StallOptions } from './projectionStalls';
export { type ProjectionStatus, projectionStatus } from './projectionStatus';
export { findProjection, type Projector, projectionsFor, UnknownProjectionError } from './projector';
export * from './reactions';
export { type RebuildProgress, type RebuildResult, rebuildProjection } from './rebuildProjection';
export { type BatchResult, type RunnerDeps, runProjectionBatch } from './runProjectionBatch';
