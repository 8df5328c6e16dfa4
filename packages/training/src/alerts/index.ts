import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ContextDeps } from '@qiraa/kernel';
import type { Projection, Reaction } from '@qiraa/projections';
import { groupRoutes } from '../groups/groupRoutes';
import { ownsGroupHolding } from '../groups/groupScope';
import { registerOpenAlertsSource } from '../queries/trainingLevelsOf';
import { registerSupportGroupReach } from '../queries/trainingReach';
import { sendRoutes } from '../sends/sendRoutes';
import { sendsProjection } from '../sends/sendsProjection';
import { openAlertsOf } from './alertQueries';
import { alertRoutes } from './alertRoutes';
import { alertsNotifier } from './alertsNotifier';
import { alertsProjection } from './alertsProjection';
import { alertsReactor } from './alertsReactor';

export * from '../sends/sendEvents';
export { teacherReachesChild } from './acknowledgeAlert';
export * from './alertEvents';
export { openAlertsOf } from './alertQueries';
export {
  CURRENT_ALERT_RULES,
  decideTrainingAlerts,
  TRAINING_ALERT_KINDS,
  TRAINING_ALERT_RULE_SETS,
} from './alertRules';

// The levels view's openAlerts come from trn_alerts.
registerOpenAlertsSource(openAlertsOf);
// A support group's owner reaches its children in the training staff views.
registerSupportGroupReach(ownsGroupHolding);

/** The alerts part's runner entries: the reactor (stays, raise, resolve), the alert read model, the sends. */
export const ALERT_PROJECTIONS: readonly Projection[] = [alertsReactor, alertsProjection, sendsProjection];

/** The alerts part's effects on other contexts: the teachers' notifications. */
export const ALERT_REACTIONS: readonly Reaction[] = [alertsNotifier];

/** The routes of the alerts part: alerts, support groups, teacher sends. */
export const alertPartRoutes =
  (deps: ContextDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(alertRoutes(deps));
    await app.register(groupRoutes(deps));
    await app.register(sendRoutes(deps));
  };
