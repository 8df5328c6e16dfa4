export { type RecordAuditEvent, recordAuditEvent } from './commands/recordAuditEvent';
export { AUDIT_RECORDED, type AuditDetail, type AuditRecordedData, auditStreamId } from './events';
export { auditLogProjection } from './projections/auditLogProjection';
export { auditContext } from './context';
