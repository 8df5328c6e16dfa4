export { type Config, loadConfig } from './config';
export { allProjections, contexts } from './contexts';
export { type OpenOptions, openRuntime, type ReadinessCheck, type Role, type Runtime } from './openRuntime';
