import type { Sql } from '@qiraa/db';
import postgres from 'postgres';
import { BoundedCache } from '../engine/boundedCache';
import type { Caller } from '../engine/caller';
import { loadCaller } from './loadCaller';

/** Migration 0014's triggers notify here when what loadCaller reads changes. */
export const TENANT_CONTEXT_CHANNEL = 'qiraa_tenant_context';
const LISTENER_NAME = 'qiraa-tenant-context';
const RETRY_MS = 1000;

export interface TenantContextCache {
  /** The caller as of every change committed before this call, or null (disabled, unknown, unenrolled). */
  load(userId: number): Promise<Caller | null>;
  /** Entries held now (for tests and metrics). */
  readonly size: number;
  /** Resolves once the listener first LISTENs; until then every load reads the database. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * loadCaller behind a per-process cache. A dedicated connection LISTENs to the triggers of migration 0014
 * and drops the entries a change touches. Two rules keep "a disabled user stops at once" true in every
 * process:
 *
 * - A read barrier: before answering, the listener connection runs `select 1`. PostgreSQL signals the
 *   listeners when a transaction commits and flushes pending notifications before it answers a query,
 *   so when the barrier returns every change committed before the request arrived has been applied.
 *   Requests that arrive while a barrier runs share the next one: under load that is one tiny query for
 *   a batch of requests, not the join per request.
 * - An epoch: every invalidation and every listener close bumps it, and a database read only enters the
 *   cache if no invalidation happened while it ran (else a read that raced a change could cache the old
 *   row after the notification had passed).
 *
 * While the listener is down (startup, a dropped connection) every request reads the database and
 * nothing is cached; on reconnect the cache starts empty, since notifications sent meanwhile are lost.
 */
export function tenantContextCache(sql: Sql, options: { capacity?: number } = {}): TenantContextCache {
  const cache = new BoundedCache<number, Caller>(options.capacity ?? 10_000);
  let epoch = 0;
  let listening = false;
  let closing = false;
  let retry: NodeJS.Timeout | undefined;
  let becameReady = () => {};
  const ready = new Promise<void>((resolve) => {
    becameReady = resolve;
  });

  const dropAll = () => {
    epoch++;
    cache.clear();
  };
  const onNotify = (payload: string) => {
    epoch++;
    const [kind, list = ''] = payload.split(':', 2);
    if (kind === 'u') for (const id of list.split(',')) cache.delete(Number(id));
    else if (kind === 'o') {
      const orgs = new Set(list.split(','));
      cache.deleteWhere((caller) => caller.organizationId !== null && orgs.has(caller.organizationId));
    } else cache.clear();
  };

  // The pool's parsed options (postgres.js' own listen() does the same), as its single-connection sibling.
  const listener = postgres({
    ...sql.options,
    max: 1,
    idle_timeout: null,
    max_lifetime: null,
    fetch_types: false,
    connection: { ...sql.options.connection, application_name: LISTENER_NAME },
    onnotify: (channel: string, payload: string) => {
      if (channel === TENANT_CONTEXT_CHANNEL) onNotify(payload);
    },
    onclose: () => {
      listening = false;
      dropAll();
      if (!closing && started) void listen();
    },
  } as unknown as postgres.Options<Record<string, postgres.PostgresType>>);

  async function listen(): Promise<void> {
    clearTimeout(retry);
    try {
      await listener.unsafe(`listen ${TENANT_CONTEXT_CHANNEL}`);
      // Whatever was cached before this (re)connection may have missed a notification.
      dropAll();
      listening = !closing;
      becameReady();
    } catch {
      if (!closing && !listening) retry = setTimeout(() => void listen(), RETRY_MS).unref();
    }
  }
  // Started by the first request, not at boot: an app that never serves one (the OpenAPI document) opens
  // no connection.
  let started = false;
  const start = () => {
    if (started || closing) return;
    started = true;
    void listen();
  };

  // The read barrier: one in flight, and at most one queued for the requests that came after it was sent.
  let inFlight: Promise<boolean> | null = null;
  let queued: Promise<boolean> | null = null;
  const sendBarrier = (): Promise<boolean> => {
    const barrier = listening
      ? listener`select 1`.then(
          () => listening,
          () => false,
        )
      : Promise.resolve(false);
    inFlight = barrier;
    void barrier.then(() => {
      if (inFlight === barrier) inFlight = null;
    });
    return barrier;
  };
  const barrier = (): Promise<boolean> => {
    if (!inFlight) return sendBarrier();
    queued ??= inFlight.then(() => {
      queued = null;
      return sendBarrier();
    });
    return queued;
  };

  return {
    async load(userId) {
      start();
      if (!(await barrier())) return loadCaller(sql, userId);
      const hit = cache.get(userId);
      if (hit) return hit;
      const startEpoch = epoch;
      const caller = await loadCaller(sql, userId);
      // Only a positive answer is kept: a refused token costs a query, a valid one does not.
      if (caller && listening && epoch === startEpoch) cache.set(userId, caller);
      return caller;
    },
    get size() {
      return cache.size;
    },
    ready: () => {
      start();
      return ready;
    },
    async close() {
      closing = true;
      listening = false;
      clearTimeout(retry);
      cache.clear();
      await listener.end({ timeout: started ? 5 : 0 });
    },
  };
}
