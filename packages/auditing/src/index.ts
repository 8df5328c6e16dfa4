export { auditingContext } from './context';
export { eventWithCauses } from './queries/eventById';
export { logEvents } from './queries/logEvents';
export { studentStreams } from './queries/studentStreams';
export { lastCheckpoint } from './verify/checkpoints';
export { type Break, describeBreak, type VerifyReport, verifyLog } from './verify/verifyLog';
