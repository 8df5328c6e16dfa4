export { type RecordAuditEvent, recordAuditEvent } from './commands/recordAuditEvent';
export { auditContext } from './context';
export { AUDIT_RECORDED, type AuditDetail, type AuditRecordedData, auditStreamId } from './events';
export { auditLogProjection } from './projections/auditLogProjection';
