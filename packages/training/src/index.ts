export * from './alerts';
export { trainingContext } from './context';
export * from './events';
export { TRAINING_PROJECTIONS } from './projections';
export {
  type OpenAlertRef,
  type OpenAlertsSource,
  registerOpenAlertsSource,
  type TrainingLevelRow,
  trainingLevelsOf,
} from './queries/trainingLevelsOf';
