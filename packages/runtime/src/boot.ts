/**
 * What an entry needs before it loads the application: its settings and its process lifecycle. An entry imports
 * this first and the rest (`@qiraa/runtime`, `@qiraa/app`) only once the settings are valid, so a start that a
 * setting refuses exits after a fraction of a CPU-second instead of loading every context first.
 */
export { type Config, loadConfig } from './config';
export { type LifecycleOptions, type ProcessLifecycle, processLifecycle, STOP_SIGNALS } from './processLifecycle';
