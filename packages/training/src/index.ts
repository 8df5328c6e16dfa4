export { teacherReachesChild } from './commands/acknowledgeAlert';
export { currentDay, type SubmitInput, submitResponse } from './commands/practiceQueue';
export { trainingContext } from './context';
export { countedAnswer, NOT_COUNTED_REASONS, type NotCountedReason } from './engine/countedAnswer';
export type { PracticeAnswerRecorded, SupportStepFired, TrainingDayOpened } from './engine/dayEvents';
export { currentSlot, type DayFold, type Slot } from './engine/foldDay';
export { decideLevelMove } from './engine/levelMove';
export { academicYearOf, schoolDayOf } from './engine/schoolDay';
export * from './events';
export * from './events/alertEvents';
export * from './events/sendEvents';
export { daysProjection, levelsProjection, TRAINING_PROJECTIONS } from './projections';
export { openAlertsOf } from './queries/alertQueries';
export { currentTrainingLevel } from './queries/currentTrainingLevel';
export { trainingDayOf, trainingDaysOf } from './queries/trainingDays';
export { trainingGroupsOf } from './queries/trainingGroups';
export {
  type OpenAlertRef,
  type OpenAlertsSource,
  registerOpenAlertsSource,
  type TrainingLevelRow,
  trainingLevelsOf,
} from './queries/trainingLevelsOf';
export { registerSupportGroupReach, type SupportGroupReach, trainingReach } from './queries/trainingReach';
export {
  CURRENT_ALERT_RULES,
  decideTrainingAlerts,
  TRAINING_ALERT_KINDS,
  TRAINING_ALERT_RULE_SETS,
} from './rules/alertRules';
export { CURRENT_TRAINING_RULES, TRAINING_RULE_SETS, type TrainingRules } from './rules/trainingRules';
