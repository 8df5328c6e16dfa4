export { type RunningWorker, runWorker } from './runWorker';
