import { defineContext } from '@qiraa/kernel';
import { auditLogProjection } from './projections/auditLogProjection';

/** Audit log routes (GET /api/admin/audit-log) arrive with identity, which gates them. */
export const auditContext = defineContext({
  name: 'audit',
  projections: [auditLogProjection],
});
