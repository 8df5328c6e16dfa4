export { type Config, loadConfig } from './config';
export { allProjections, contexts } from './contexts';
export { describeStartup } from './describeStartup';
export { failureLine } from './failureLine';
export { type OpenOptions, openRuntime, type ReadinessCheck, type Role, type Runtime } from './openRuntime';
export { type LifecycleOptions, type ProcessLifecycle, processLifecycle, STOP_SIGNALS } from './processLifecycle';
