export * from './codes';
export { acceptSession } from './commands/acceptSession';
export { answerSessionItem, type SessionAnswerOutcome } from './commands/answerSessionItem';
export { approveBlueprintBatch } from './commands/approveBlueprintBatch';
export { createSession } from './commands/createSession';
export { deliverMixed } from './commands/deliverSession';
export { importBlueprints } from './commands/importBlueprints';
export { sessionsContext } from './context';
export * from './events';
export { practiceProjection } from './projections/practiceProjection';
export {
  currentSessionItem,
  type QueuedSession,
  queuedSessionOf,
  sessionQueuedExpr,
  sessionServed,
} from './queries/sessionQueue';
export { type CompletedSessionResult, completedSessionResultsOf } from './queries/sessionResults';
export { renderSessionSheet, type SheetInput } from './queries/sessionSheet';
export { sessionLink } from './queries/sheetQrCode';
export { zipSheets } from './queries/zipSheets';
