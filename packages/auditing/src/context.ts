import { defineContext } from '@qiraa/kernel';
import { auditorRoutes } from './routes/auditorRoutes';
import { verifyLogSchedule } from './schedules/verifySchedule';
import { AuditedEvent } from './schemas';

/** The auditors' view of the event log (docs/auditing.md): read-only routes and the nightly verification. */
export const auditingContext = defineContext({
  name: 'auditing',
  projections: [],
  schedules: [verifyLogSchedule],
  sharedSchemas: [AuditedEvent],
  routes: (deps) => auditorRoutes(deps),
});
