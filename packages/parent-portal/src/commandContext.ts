import { auditLogProjection } from '@qiraa/audit';
import { defineCommandContext } from '@qiraa/command-kit';

/**
 * The parent portal's write side: the data-access log row its commands write with the event, in their own
 * transaction (`audit_log`, audit's read model: a PDF is sent only once its export is logged).
 */
export const parentPortalCommands = defineCommandContext({
  name: 'parent-portal',
  inline: [auditLogProjection],
});
