import type { AddressInfo } from 'node:net';
import { buildApp } from '@qiraa/app';
import type { WireCounter } from '@qiraa/db';
import { loadConfig, openRuntime, type Runtime } from '@qiraa/runtime';
import type { FastifyInstance } from 'fastify';

// Any 32+ characters: the bench signs and checks its own tokens only.
export const BENCH_JWT_SECRET = 'qiraa-bench-gamification-secret-0123456789abcdef';

export interface RunningApi {
  readonly runtime: Runtime;
  readonly app: FastifyInstance;
  /** e.g. http://127.0.0.1:40123 */
  readonly baseUrl: string;
  /** TCP connections the server accepted so far (keep-alive check). */
  connections(): number;
  /** Closes the server, then the runtime (its pool). Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The real API (every bounded context, the error mapper, validation, auth) on a random loopback port,
 * against `databaseUrl` (migrated by openRuntime). The projection runner is not started: the ledger is
 * projected inline by the command, and the runner's own speed is measured separately (catch-up).
 */
export async function startApi(databaseUrl: string, options: { wire?: WireCounter } = {}): Promise<RunningApi> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: BENCH_JWT_SECRET,
    LOG_LEVEL: process.env.BENCH_LOG ?? 'silent',
    PORT: '0',
    // The write combiner, when the bench is run with it (WRITE_COMBINE_MS=2 npm run bench:gamification).
    WRITE_COMBINE_MS: process.env.WRITE_COMBINE_MS,
    WRITE_COMBINE_MAX: process.env.WRITE_COMBINE_MAX,
    WRITE_COMBINE_LANES: process.env.WRITE_COMBINE_LANES,
  });
  const runtime = await openRuntime(config, { role: 'api', wire: options.wire });
  let app: FastifyInstance | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      try {
        if (app) {
          // Requests in flight may finish; after 5 s the remaining sockets are cut (keep-alive clients).
          const server = app.server;
          const cut = setTimeout(() => server.closeAllConnections(), 5000);
          try {
            await app.close();
          } finally {
            clearTimeout(cut);
          }
        }
      } finally {
        await runtime.close();
      }
    })();
    return closing;
  };
  try {
    app = await buildApp(runtime, { logLevel: (process.env.BENCH_LOG ?? 'silent') as 'silent' });
    let accepted = 0;
    app.server.on('connection', () => {
      accepted += 1;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return { runtime, app, baseUrl: `http://127.0.0.1:${port}`, connections: () => accepted, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/** A JSON call through a real socket (Node's fetch keeps connections alive); throws on an unexpected status. */
export async function call<T>(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; body?: unknown; expect?: readonly number[] } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (!(options.expect ?? [200]).includes(response.status)) {
    throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 300)}`);
  }
  return JSON.parse(text) as T;
}

/** POST /api/auth/login: an access token for an adult. */
export async function login(baseUrl: string, email: string, password: string): Promise<string> {
  const tokens = await call<{ accessToken: string }>(baseUrl, 'POST', '/api/auth/login', { body: { email, password } });
  return tokens.accessToken;
}
