export { auditingContext } from './context';
export { lastCheckpoint } from './queries/checkpoints';
export { eventWithCauses } from './queries/eventById';
export { logEvents } from './queries/logEvents';
export { studentStreams } from './queries/studentStreams';
export { type Break, describeBreak, type VerifyReport, verifyLog } from './replay/verifyLog';
