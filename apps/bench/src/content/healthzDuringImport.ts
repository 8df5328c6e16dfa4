import { performance } from 'node:perf_hooks';
import { call, startApi } from '../gamification/api';
import { percentile } from '../measure';
import { syntheticBundle } from './syntheticBundle';

export interface HealthzLatency {
  probes: number;
  p99Ms: number;
  maxMs: number;
}

export interface HealthzDuringImport {
  /** /healthz with nothing else running. */
  idle: HealthzLatency;
  /** /healthz while a ~10 MB content_bundle import runs through POST /api/items/import. */
  importing: HealthzLatency;
  importBytes: number;
  importMs: number;
}

const PASSWORD = 'bench content healthz';
const IDLE_PROBES = 500;

/** One /healthz after another (each starts when the previous answered) until `until()` says stop. */
async function probeHealthz(baseUrl: string, until: () => boolean): Promise<HealthzLatency> {
  const latencies: number[] = [];
  while (!until()) {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/healthz`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  return { probes: latencies.length, p99Ms: percentile(latencies, 99), maxMs: latencies.at(-1) ?? Number.NaN };
}

/**
 * The real API on a loopback port (its own process's event loop serves both): /healthz latency idle, then while
 * a near-10 MB import (the largest an import may be) is uploaded, checked and stored. The client runs in the
 * same process, so a blocked event loop shows as probe latency.
 */
export async function healthzDuringImport(databaseUrl: string): Promise<HealthzDuringImport> {
  const api = await startApi(databaseUrl);
  try {
    const registered = await call<{ tokens: { accessToken: string } }>(api.baseUrl, 'POST', '/api/auth/register', {
      body: { email: 'healthz@bench.test', password: PASSWORD, fullNameAr: 'مشرف', primaryPersona: 'ADMIN' },
      expect: [201],
    });
    const token = registered.tokens.accessToken;
    let probes = 0;
    const idle = await probeHealthz(api.baseUrl, () => probes++ >= IDLE_PROBES);

    // Encoded before the probes start: the client shares the event loop, and encoding 10 MB is not the server's.
    const body = Buffer.from(JSON.stringify(syntheticBundle('hz10', 1350, 16)));
    let done = false;
    const t0 = performance.now();
    const imported = fetch(`${api.baseUrl}/api/items/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    })
      .then(async (res) => ({ status: res.status, text: await res.text() }))
      .finally(() => {
        done = true;
      });
    const importing = await probeHealthz(api.baseUrl, () => done);
    const answer = await imported;
    const importMs = performance.now() - t0;
    if (answer.status !== 201) throw new Error(`healthz import: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
    const rejected = (JSON.parse(answer.text) as { counts: { rejected: number } }).counts.rejected;
    if (rejected > 0) throw new Error(`healthz import: ${rejected} rows rejected`);
    return { idle, importing, importBytes: body.length, importMs };
  } finally {
    await api.close();
  }
}
