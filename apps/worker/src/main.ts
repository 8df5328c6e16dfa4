import { loadConfig } from '@qiraa/runtime';
import { pino } from 'pino';
import { runWorker } from './runWorker';

const config = loadConfig();
const logger = pino({ level: config.logLevel, base: { app: 'qiraa-worker' } });
const running = await runWorker(config, (line) => logger.info(line));
logger.info({ projections: running.runtime.projector.projections.map((p) => p.name) }, 'worker ready');

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'worker shutting down');
  setTimeout(() => process.exit(1), 30_000).unref();
  await running.close();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
