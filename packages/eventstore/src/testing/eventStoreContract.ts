import { describe, expect, it } from 'vitest';
import { randomEventId } from '../eventId';
import { eventsAs } from '../typedEvents';
import type { EventStore, NewEvent, RecordedEvent } from '../types';
import { untilNothingWaiting } from '../untilNothingWaiting';

export interface ContractFixture {
  store: EventStore;
  /**
   * Begins an append on its own connection and holds the transaction open until `commit` is called.
   * Only adapters whose writers can commit out of position order provide it (PostgreSQL).
   */
  holdOpenAppend?: (streamId: string, events: readonly NewEvent[]) => Promise<{ commit(): Promise<void> }>;
}

let counter = 0;
const uniqueStream = (category = 'contract') => `${category}-${Date.now().toString(36)}${(counter++).toString(36)}`;
const event = (type = 'ContractTested', data: Record<string, unknown> = {}): NewEvent => ({
  eventId: randomEventId(),
  type,
  data,
  metadata: { actorUserId: 1, organizationId: 'org_contract' },
});

/**
 * Reads the whole log from `after` in small batches, as a projection would; by default first waits until
 * no committed event is held back by another test's open transaction (a cluster-wide horizon).
 */
/** The contract's race events, typed. */
const raceEvents = (events: readonly RecordedEvent[]) => eventsAs<{ type: 'Race'; data: { who: string } }>(events);

async function drain(store: EventStore, after: string | null, types?: readonly string[], settle = true) {
  if (settle) expect(await untilNothingWaiting(store)).toBe(true);
  const seen: RecordedEvent[] = [];
  let checkpoint = after;
  for (;;) {
    const batch = await store.readAll({ after: checkpoint, limit: 3, types });
    seen.push(...batch.events);
    checkpoint = batch.checkpoint;
    if (batch.caughtUp) return { seen, checkpoint };
  }
}

/** The behaviour every EventStore adapter must show. `setup` runs once per describe block. */
export function eventStoreContract(adapterName: string, setup: () => ContractFixture) {
  describe(`EventStore contract: ${adapterName}`, () => {
    it('appends to a new stream and reads it back in order with versions from 1', async () => {
      const { store } = setup();
      const stream = uniqueStream();
      const result = await store.append(stream, [event('A', { n: 1 }), event('B', { n: 2 })], {
        expected: 'no_stream',
      });
      expect(result.kind).toBe('appended');
      if (result.kind !== 'appended') return;
      expect(result.streamVersion).toBe(2n);
      const read = await store.readStream(stream);
      expect(read.map((e) => [e.type, e.streamVersion, e.data])).toEqual([
        ['A', 1n, { n: 1 }],
        ['B', 2n, { n: 2 }],
      ]);
      expect(read[0]!.metadata).toMatchObject({ actorUserId: 1, organizationId: 'org_contract' });
      expect(read[0]!.createdAt).toBeInstanceOf(Date);
      expect(await store.readStream(stream, { from: 2n })).toHaveLength(1);
    });

    it('enforces no_stream, stream_exists, an exact version and any', async () => {
      const { store } = setup();
      const stream = uniqueStream();
      expect((await store.append(stream, [event()], { expected: 'stream_exists' })).kind).toBe('conflict');
      expect((await store.append(stream, [event()], { expected: 'no_stream' })).kind).toBe('appended');
      const again = await store.append(stream, [event()], { expected: 'no_stream' });
      expect(again).toMatchObject({ kind: 'conflict', actual: 1n });
      expect((await store.append(stream, [event()], { expected: 'stream_exists' })).kind).toBe('appended');
      expect(await store.append(stream, [event()], { expected: 5n })).toMatchObject({ kind: 'conflict', actual: 2n });
      expect(await store.append(stream, [event()], { expected: 2n })).toMatchObject({
        kind: 'appended',
        streamVersion: 3n,
      });
      expect(await store.append(stream, [event()], { expected: 'any' })).toMatchObject({ streamVersion: 4n });
      expect(await store.append(uniqueStream(), [event()], { expected: 'any' })).toMatchObject({ streamVersion: 1n });
      expect(await store.readStream(stream)).toHaveLength(4);
    });

    it('lets exactly one of many parallel writers with the same expected version win', async () => {
      const { store } = setup();
      const stream = uniqueStream();
      await store.append(stream, [event()], { expected: 'no_stream' });
      const results = await Promise.all(
        Array.from({ length: 8 }, () => store.append(stream, [event()], { expected: 1n })),
      );
      expect(results.filter((r) => r.kind === 'appended')).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'conflict')).toHaveLength(7);
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('lets exactly one of many parallel creators of a stream win', async () => {
      const { store } = setup();
      const stream = uniqueStream();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => store.append(stream, [event()], { expected: 'no_stream' })),
      );
      expect(results.filter((r) => r.kind === 'appended')).toHaveLength(1);
      expect(await store.readStream(stream)).toHaveLength(1);
    });

    it('stores a retried append of the same event ids once', async () => {
      const { store } = setup();
      const stream = uniqueStream();
      const batch = [event('Once'), event('Twice')];
      expect((await store.append(stream, batch, { expected: 'no_stream' })).kind).toBe('appended');
      const retry = await store.append(stream, batch, { expected: 'no_stream' });
      expect(retry.kind).toBe('duplicate');
      // 'any' retries are idempotent too (KurrentDB reports them as a success that wrote nothing).
      expect((await store.append(stream, batch, { expected: 'any' })).kind).not.toBe('conflict');
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it('reads the whole log from a checkpoint, filtered by type, without repeats', async () => {
      const { store } = setup();
      const start = await drain(store, null);
      const stream = uniqueStream();
      await store.append(stream, [event('Kept', { i: 1 }), event('Other'), event('Kept', { i: 2 })]);
      await store.append(uniqueStream(), [event('Kept', { i: 3 })]);
      const firstPass = await drain(store, start.checkpoint, ['Kept']);
      expect(firstPass.seen.map((e) => e.data)).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
      const secondPass = await drain(store, firstPass.checkpoint, ['Kept']);
      expect(secondPass.seen).toEqual([]);
      expect(await store.countAfter(start.checkpoint, ['Kept'])).toBe(3);
      expect(await store.countAfter(firstPass.checkpoint)).toBe(0);
      expect(await store.head()).not.toBeNull();
    });

    it('never lets a reader skip an event whose transaction took a lower position but committed later', async (ctx) => {
      const fixture = setup();
      if (!fixture.holdOpenAppend) {
        ctx.skip();
        return;
      }
      const { store } = fixture;
      const start = await drain(store, null);
      const slow = await fixture.holdOpenAppend(uniqueStream('slow'), [event('Race', { who: 'slow' })]);
      await store.append(uniqueStream('fast'), [event('Race', { who: 'fast' })]);

      const whileOpen = await drain(store, start.checkpoint, ['Race'], false);
      // The fast event may not be handed out yet: a reader that took it would move its checkpoint past the slow one.
      expect(raceEvents(whileOpen.seen).map((e) => e.data.who)).toEqual([]);

      await slow.commit();
      const after = await drain(store, whileOpen.checkpoint, ['Race']);
      expect(
        raceEvents(after.seen)
          .map((e) => e.data.who)
          .sort(),
      ).toEqual(['fast', 'slow']);
    });

    it('delivers appended events to a subscriber in order', async () => {
      const { store } = setup();
      const start = await drain(store, null);
      const stream = uniqueStream();
      const received: RecordedEvent[] = [];
      const done = new Promise<void>((resolve) => {
        const sub = store.subscribe({
          after: start.checkpoint,
          types: ['Subscribed'],
          onBatch: async (events) => {
            received.push(...events);
            if (received.length >= 3) {
              resolve();
              void sub.stop();
            }
          },
        });
      });
      await store.append(stream, [event('Subscribed', { i: 1 }), event('Subscribed', { i: 2 })]);
      await store.append(stream, [event('Subscribed', { i: 3 })]);
      await done;
      expect(received.map((e) => e.data)).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
    });
  });
}
