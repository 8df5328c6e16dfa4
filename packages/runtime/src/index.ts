export { type Config, loadConfig } from './config';
export { allProjections, allReactions, allSchedules, contexts } from './contexts';
export { describeStartup } from './describeStartup';
export { failureLine } from './failureLine';
export { type OpenOptions, openRuntime, type ReadinessCheck, type Role, type Runtime } from './openRuntime';
export { type LifecycleOptions, type ProcessLifecycle, processLifecycle, STOP_SIGNALS } from './processLifecycle';
export { assertRedisReachable, startProjectorWithin } from './redisReachable';
export { latestTicks, nextDue } from './schedules/dueTicks';
export {
  createScheduler,
  type Scheduler,
  type SchedulerOptions,
  type ScheduleStatus,
  type TickRun,
} from './schedules/scheduler';
