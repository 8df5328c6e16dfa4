import { loadConfig, processLifecycle } from '@qiraa/runtime/boot';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { DRAIN_MS, drainWithin } from './drain';
import { assertPortFree, listen } from './listen';

// Installed first: a stop during start-up stops at once, after letting an embedded PostgreSQL finish starting.
let app: FastifyInstance | undefined;
const bootLog = pino({ level: process.env.LOG_LEVEL || 'info' });
const life = processLifecycle({
  name: 'qiraa',
  // The drain (10 s), then the pool (5 s) and the embedded PostgreSQL's stop.
  graceMs: 25_000,
  log: (fields, message) => (app?.log ?? bootLog).info(fields, message),
});

try {
  const config = loadConfig();
  await assertPortFree(config.host, config.port);
  // The application's modules load only now: a start its settings refuse exits without loading them
  // (2.5 CPU-s of every refused start, startupFailures.e2e.spec.ts).
  const { describeStartup, openRuntime, startProjectorWithin } = await import('@qiraa/runtime');
  const { buildApp } = await import('@qiraa/app');
  const runtime = await openRuntime(config, {
    role: 'api',
    holdStop: life.hold,
    log: (line) => {
      if (config.logLevel === 'debug' || config.logLevel === 'trace') process.stderr.write(`${line}\n`);
    },
    // A failed projection run is an operator's business at any LOG_LEVEL (issue 23: it was debug-only).
    logError: (line) => (app?.log ?? bootLog).error(line),
  });
  life.onStop(() => runtime.close());
  app = await buildApp(runtime, {
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
  });
  const started = app;
  life.onStop(() => drainWithin(started, DRAIN_MS));
  const database = describeStartup(runtime);
  app.log.info(database.fields, database.message);
  await startProjectorWithin(runtime.projector, config.redisUrl);
  // Catches up at once: a tick missed while the service was down runs within seconds of start.
  await runtime.scheduler.start();
  await runtime.reactor.start();
  await listen(app, config.host, config.port);
  app.log.info(
    { database: runtime.database.kind, eventStore: runtime.store.adapter, projections: runtime.projector.mode },
    `qiraa listening on http://${config.host}:${config.port} (docs at /docs)`,
  );
  life.started();
} catch (error) {
  await life.fail(error);
}
