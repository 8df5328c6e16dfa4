import { loadConfig, processLifecycle } from '@qiraa/runtime/boot';
import { pino } from 'pino';
import { requireRedisUrl } from './requireRedisUrl';

const logger = pino({ level: process.env.LOG_LEVEL || 'info', base: { app: 'qiraa-worker' } });
const life = processLifecycle({
  name: 'qiraa-worker',
  graceMs: 30_000,
  log: (fields, message) => logger.info(fields, message),
});

try {
  const config = loadConfig();
  requireRedisUrl(config);
  // The worker's modules load only now: a start its settings refuse exits without loading them
  // (2.5 CPU-s of every refused start, startupFailures.e2e.spec.ts).
  const { describeStartup } = await import('@qiraa/runtime');
  const { runWorker } = await import('./runWorker');
  const { watchJoinedCluster } = await import('./watchJoinedCluster');
  const start = () =>
    runWorker(
      config,
      (line) => logger.info(line),
      (line) => logger.error(line),
      life.hold,
    );
  let running = await start();
  life.onStop(() => running.close());
  const describe = () => {
    const database = describeStartup(running.runtime);
    logger.info(database.fields, database.message);
  };
  describe();
  // A joined embedded cluster that moves is joined again where it is now; one that stopped ends the worker.
  const follow = () =>
    watchJoinedCluster(running.runtime.database.embedded, ({ line, port }) => {
      if (port === null) return void life.fail(new Error(line));
      logger.error(line);
      void running
        .close()
        .then(start)
        .then((next) => {
          running = next;
          describe();
          follow();
        })
        .catch((error) => life.fail(error));
    });
  follow();
  logger.info(
    {
      projections: running.runtime.projector.projections.map((p) => p.name),
      reactions: running.runtime.reactor.reactions.map((r) => r.name),
    },
    'worker ready',
  );
  life.started();
} catch (error) {
  await life.fail(error);
}
