import { describeStartup, loadConfig, processLifecycle } from '@qiraa/runtime';
import { pino } from 'pino';
import { runWorker } from './runWorker';

const logger = pino({ level: process.env.LOG_LEVEL || 'info', base: { app: 'qiraa-worker' } });
const life = processLifecycle({
  name: 'qiraa-worker',
  graceMs: 30_000,
  log: (fields, message) => logger.info(fields, message),
});

try {
  const config = loadConfig();
  const running = await runWorker(config, (line) => logger.info(line));
  life.onStop(() => running.close());
  const database = describeStartup(running.runtime);
  logger.info(database.fields, database.message);
  logger.info({ projections: running.runtime.projector.projections.map((p) => p.name) }, 'worker ready');
  life.started();
} catch (error) {
  await life.fail(error);
}
