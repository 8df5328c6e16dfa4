export { compareLedger, DRIFT_KEYS, type LedgerDrift } from './compare';
export { type ReplayReport, replayReport } from './replayReport';
export {
  type LedgerKeys,
  type ReplayFold,
  replayStudent,
  type StreamEvent,
  type StudentStreams,
} from './replayStudent';
export { storedAsOf } from './storedAsOf';
