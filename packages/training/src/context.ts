import { defineContext } from '@qiraa/kernel';
import { TRAINING_PROJECTIONS } from './projections';
import { openAlertsOf } from './queries/alertQueries';
import { ownsGroupHolding } from './queries/groupScope';
import { registerOpenAlertsSource } from './queries/trainingLevelsOf';
import { registerSupportGroupReach } from './queries/trainingReach';
import { TRAINING_REACTIONS } from './reactions';
import { alertRoutes } from './routes/alertRoutes';
import { groupRoutes } from './routes/groupRoutes';
import { practiceRoutes } from './routes/practiceRoutes';
import { sendRoutes } from './routes/sendRoutes';
import { staffRoutes } from './routes/staffRoutes';
import { TRAINING_SCHEDULES } from './schedules';

// The levels view's openAlerts come from trn_alerts.
registerOpenAlertsSource(openAlertsOf);
// A support group's owner reaches its children in the training staff views.
registerSupportGroupReach(ownsGroupHolding);

/**
 * Training: daily practice at the right level. Levels per skill start from the screen's training-level seed
 * (decisions) or the experience type, move on counted answers, and each move is an event on
 * `traininglevel-<studentId>`; a day of practice is `trainingday-<dayId>`. Alerts watch the levels and days;
 * teachers keep support groups and send exercises.
 */
export const trainingContext = defineContext({
  name: 'training',
  projections: TRAINING_PROJECTIONS,
  schedules: TRAINING_SCHEDULES,
  reactions: TRAINING_REACTIONS,
  routes: (deps) => async (app) => {
    await app.register(practiceRoutes(deps));
    await app.register(staffRoutes(deps));
    await app.register(alertRoutes(deps));
    await app.register(groupRoutes(deps));
    await app.register(sendRoutes(deps));
  },
});
