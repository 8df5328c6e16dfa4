import { defineContext } from '@qiraa/kernel';
import { ALERT_REACTIONS, alertPartRoutes } from './alerts';
import { TRAINING_PROJECTIONS } from './projections';
import { practiceRoutes } from './routes/practiceRoutes';
import { staffRoutes } from './routes/staffRoutes';
import { TRAINING_SCHEDULES } from './schedules';

/**
 * Training: daily practice at the right level. Levels per skill start from the screen's training-level seed
 * (decisions) or the experience type, move on counted answers, and each move is an event on
 * `traininglevel-<studentId>`; a day of practice is `trainingday-<dayId>`.
 */
export const trainingContext = defineContext({
  name: 'training',
  projections: TRAINING_PROJECTIONS,
  schedules: TRAINING_SCHEDULES,
  reactions: ALERT_REACTIONS,
  routes: (deps) => async (app) => {
    await app.register(practiceRoutes(deps));
    await app.register(staffRoutes(deps));
    await app.register(alertPartRoutes(deps));
  },
});
