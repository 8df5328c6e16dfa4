import { afterAll, beforeAll, describe, it } from 'vitest';
import { eventStoreContract } from '../testing/eventStoreContract';
import type { EventStore } from '../types';
import { kurrentdbEventStore } from './kurrentdbEventStore';
import { locateKurrentdb, startKurrentdbContainer } from './kurrentdbTestServer';

const server = await locateKurrentdb();

if (server.kind === 'none') {
  console.warn(`[kurrentdb contract] skipped: ${server.reason}`);
  describe.skip('EventStore contract: kurrentdb', () => {
    it('needs EVENTSTORE_URL or a Docker engine', () => {});
  });
} else {
  let store: EventStore | undefined;
  let stopServer = async () => {};

  beforeAll(async () => {
    let connectionString: string;
    if (server.kind === 'url') {
      connectionString = server.connectionString;
    } else {
      const container = await startKurrentdbContainer();
      stopServer = container.stop;
      connectionString = container.connectionString;
    }
    store = kurrentdbEventStore(connectionString, { resubscribe: { minDelayMs: 20 } });
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await stopServer();
  });

  // No holdOpenAppend: KurrentDB commits in log order itself, so the slow-transaction race cannot happen.
  eventStoreContract('kurrentdb', () => ({ store: store! }));
}
