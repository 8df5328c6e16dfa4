import { loadConfig, openRuntime } from '@qiraa/runtime';
import { buildApp } from './buildApp';

const config = loadConfig();
const runtime = await openRuntime(config, {
  role: 'api',
  log: (line) => {
    if (config.logLevel === 'debug' || config.logLevel === 'trace') process.stderr.write(`${line}\n`);
  },
});
const app = await buildApp(runtime, { logLevel: config.logLevel, trustProxy: config.trustProxy });
app.addHook('onClose', async () => runtime.close());
await runtime.projector.start();

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  // A stuck connection must not keep the process alive forever.
  setTimeout(() => process.exit(1), 15_000).unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
app.log.info(
  { database: runtime.database.kind, eventStore: runtime.store.adapter, projections: runtime.projector.mode },
  `qiraa listening on http://${config.host}:${config.port} (docs at /docs)`,
);
