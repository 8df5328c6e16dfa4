export { type RecordAuditEvent, recordAuditEvent } from './commands/recordAuditEvent';
export { auditContext } from './context';
export {
  AUDIT_RECORDED,
  type AuditDetail,
  type AuditEvent,
  type AuditRecordedData,
  auditEvents,
  auditStreamId,
} from './events';
export { auditLogProjection } from './projections/auditLogProjection';
export type { AuditLogEntry } from './queries/auditLogEntry';
export { getAuditEntry } from './queries/getAuditEntry';
export {
  AUDIT_LOG_DEFAULT_LIMIT,
  AUDIT_LOG_MAX_LIMIT,
  type AuditLogFilter,
  type AuditLogPage,
  listAuditLog,
} from './queries/listAuditLog';
