import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { call } from './api';
import { type LatencyStats, runTimed } from './ingest';

/**
 * GET /api/students/{id}/gamification/profile from `clients` concurrent loops over `students`, beside the
 * baseline of the same loops against a bare fastify (no plugin, no hook, no database) answering a JSON
 * body of the same shape, on its own loopback port in this process.
 */
export async function timeProfile(
  baseUrl: string,
  token: string,
  students: readonly number[],
  requests: number,
  clients: number,
): Promise<{ profile: LatencyStats; bare: LatencyStats }> {
  const sample = await call<unknown>(baseUrl, 'GET', `/api/students/${students[0]}/gamification/profile`, { token });
  const bare = Fastify({ logger: false });
  bare.get('/bare/:id', async () => sample);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    const getBare = (i: number) => call<unknown>(bareUrl, 'GET', `/bare/${students[i % students.length]}`, { token });
    const getProfile = (i: number) =>
      call<unknown>(baseUrl, 'GET', `/api/students/${students[i % students.length]}/gamification/profile`, { token });
    const warmup = Math.min(200, requests);
    await runTimed(warmup, clients, async (i) => void (await getBare(i)));
    await runTimed(warmup, clients, async (i) => void (await getProfile(i)));
    const bareStats = await runTimed(requests, clients, async (i) => void (await getBare(i)));
    const profile = await runTimed(requests, clients, async (i) => void (await getProfile(i)));
    return { profile, bare: bareStats };
  } finally {
    await bare.close();
  }
}
