export {
  DEFAULT_TIME_ZONE,
  fromEpochDay,
  isSchoolDayString,
  isWeekend,
  type SchoolDayEvent,
  schoolDayOf,
  schoolDayOfEvent,
  schoolDaysBetween,
  toEpochDay,
} from './schoolDay';
export {
  applySchoolDay,
  DEFAULT_STREAK_RULES,
  EMPTY_STREAK,
  foldStreak,
  type StreakOutcome,
  type StreakRules,
  type StreakState,
} from './streak';
