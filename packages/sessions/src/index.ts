export * from './codes';
export { acceptSession } from './commands/acceptSession';
export { approveBlueprintBatch } from './commands/approveBlueprintBatch';
export { createSession } from './commands/createSession';
export { deliverMixed } from './commands/deliverSession';
export { importBlueprints } from './commands/importBlueprints';
export { sessionsContext } from './context';
export { sessionLink } from './pdf/qrCode';
export { renderSessionSheet, type SheetInput } from './pdf/sessionSheet';
export { zipSheets } from './pdf/zipSheets';
export * from './practice/practiceEvents';
export { practiceProjection } from './practice/practiceProjection';
export {
  answerSessionItem,
  currentSessionItem,
  type QueuedSession,
  queuedSessionOf,
  type SessionAnswerOutcome,
  sessionQueuedExpr,
  sessionServed,
} from './practice/sessionQueue';
export { type CompletedSessionResult, completedSessionResultsOf } from './practice/sessionResults';
