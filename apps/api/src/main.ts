import { describeStartup, loadConfig, openRuntime, processLifecycle } from '@qiraa/runtime';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from './buildApp';
import { assertPortFree, listen } from './listen';

// Installed first: a stop requested while PostgreSQL starts still stops it once start-up settles.
let app: FastifyInstance | undefined;
const bootLog = pino({ level: process.env.LOG_LEVEL || 'info' });
const life = processLifecycle({
  name: 'qiraa',
  graceMs: 15_000,
  log: (fields, message) => (app?.log ?? bootLog).info(fields, message),
});

try {
  const config = loadConfig();
  await assertPortFree(config.host, config.port);
  const runtime = await openRuntime(config, {
    role: 'api',
    log: (line) => {
      if (config.logLevel === 'debug' || config.logLevel === 'trace') process.stderr.write(`${line}\n`);
    },
  });
  life.onStop(() => runtime.close());
  app = await buildApp(runtime, { logLevel: config.logLevel, trustProxy: config.trustProxy });
  const started = app;
  life.onStop(() => started.close());
  const database = describeStartup(runtime);
  app.log.info(database.fields, database.message);
  await runtime.projector.start();
  await listen(app, config.host, config.port);
  app.log.info(
    { database: runtime.database.kind, eventStore: runtime.store.adapter, projections: runtime.projector.mode },
    `qiraa listening on http://${config.host}:${config.port} (docs at /docs)`,
  );
  life.started();
} catch (error) {
  await life.fail(error);
}
