/**
 * npm run bench:http
 *
 * GET /api/auth/me (bearer token, the tenant-context hook, the route's own reads) of the real API process
 * next to a bare fastify hello world, each in a node process of its own on loopback, measured in the same
 * run by autocannon in alternating rounds. Ends with the JSON line of jsonLine.ts.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { connect, freeLoopbackPort, migrateOrThrow } from '@qiraa/db';
import { acquireDatabase } from './database';
import { machineFacts } from './facts';
import { type LoadResult, load } from './http/load';
import { type ServerProcess, startServer } from './http/processes';
import { printBenchJson } from './jsonLine';
import { figure, fmt, formatTable, section } from './report';

function readArgs() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      small: { type: 'boolean' },
    },
    strict: true,
  });
  const small = values.small || process.env.BENCH_SMALL === '1';
  const int = (name: string, raw: string | undefined, fallback: number) => {
    const value = Number(raw ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
    return value;
  };
  return {
    seconds: int('seconds', values.seconds ?? process.env.BENCH_SECONDS, small ? 4 : 10),
    connections: int('connections', values.connections ?? process.env.BENCH_CONNECTIONS, 32),
    rounds: int('rounds', values.rounds ?? process.env.BENCH_ROUNDS, 2),
  };
}

async function post(url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A teacher's access token, made through the API as a client would (the super admin's calls are audited). */
async function teacherToken(api: string): Promise<string> {
  const password = 'bench horse battery staple';
  const root = await post(`${api}/api/auth/register`, {
    email: 'root@bench.test',
    password,
    fullNameAr: 'المشرف',
    primaryPersona: 'ADMIN',
  });
  const superToken = (root.tokens as { accessToken: string }).accessToken;
  const org = await post(
    `${api}/api/organizations`,
    { name: 'منظمة القياس', slug: 'bench-org', country: 'JO', defaultLocale: 'ar-JO' },
    superToken,
  );
  await post(
    `${api}/api/users`,
    { primaryPersona: 'TEACHER', email: 'teacher@bench.test', password, fullNameAr: 'معلمة', organizationId: org.id },
    superToken,
  );
  const login = await post(`${api}/api/auth/login`, { email: 'teacher@bench.test', password });
  return login.accessToken as string;
}

function total(results: readonly LoadResult[], seconds: number) {
  const requests = results.reduce((n, r) => n + r.requests, 0);
  return {
    requestsPerSecond: requests / (seconds * results.length),
    p50Ms: results.reduce((n, r) => n + r.p50Ms, 0) / results.length,
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    requests,
    bad: results.reduce((n, r) => n + r.non2xx + r.errors, 0),
  };
}

async function main(): Promise<void> {
  const args = readArgs();
  const started = Date.now();
  const db = await acquireDatabase((line) => console.log(line));
  const servers: ServerProcess[] = [];
  const sql = connect(db.url, { max: 2, applicationName: 'qiraa-bench' });
  let figures = {};
  try {
    await migrateOrThrow(sql);
    section('machine');
    console.log(formatTable(['fact', 'value'], await machineFacts(sql, db), false));
    await sql.end();

    const apiPort = await freeLoopbackPort();
    const api = await startServer('apps/api/src/main.ts', apiPort, '/healthz', {
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(32).toString('hex'),
      REDIS_URL: '',
    });
    servers.push(api);
    const hello = await startServer('apps/bench/src/http/helloServer.ts', await freeLoopbackPort(), '/hello');
    servers.push(hello);
    const token = await teacherToken(api.url);
    const targets = {
      hello: { url: `${hello.url}/hello`, headers: undefined },
      me: { url: `${api.url}/api/auth/me`, headers: { authorization: `Bearer ${token}` } },
    };

    section(
      `loopback HTTP: ${args.connections} connections, ${args.rounds} rounds of ${args.seconds} s per target, alternating`,
    );
    for (const t of Object.values(targets)) await load(t.url, { seconds: 1, connections: args.connections, ...t });
    const runs = { hello: [] as LoadResult[], me: [] as LoadResult[] };
    for (let round = 0; round < args.rounds; round++) {
      const order = round % 2 ? (['me', 'hello'] as const) : (['hello', 'me'] as const);
      for (const name of order) {
        const r = await load(targets[name].url, {
          seconds: args.seconds,
          connections: args.connections,
          ...targets[name],
        });
        runs[name].push(r);
        console.log(`round ${round + 1}/${args.rounds} ${name}: ${fmt(r.requestsPerSecond)} req/s`);
      }
    }
    const h = total(runs.hello, args.seconds);
    const m = total(runs.me, args.seconds);
    if (m.bad > 0 || h.bad > 0) throw new Error(`non-2xx or failed requests: me ${m.bad}, hello ${h.bad}`);

    section('results');
    console.log(
      formatTable(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'requests'],
        [
          ['fastify hello world', fmt(h.requestsPerSecond), fmt(h.p50Ms, 1), fmt(h.p99Ms, 1), fmt(h.requests)],
          ['GET /api/auth/me', fmt(m.requestsPerSecond), fmt(m.p50Ms, 1), fmt(m.p99Ms, 1), fmt(m.requests)],
          ['me / hello', fmt(m.requestsPerSecond / h.requestsPerSecond, 2), '', '', ''],
        ],
      ),
    );
    console.log(`\ntotal run time ${fmt((Date.now() - started) / 1000, 1)} s`);
    figures = {
      auth_me_vs_hello_world: figure(m.requestsPerSecond, h.requestsPerSecond, 'req/s', '>= 0.20'),
      auth_me_p50_vs_hello_world: figure(m.p50Ms, h.p50Ms, 'ms'),
    };
  } finally {
    for (const s of servers) await s.stop();
    await sql.end({ timeout: 1 }).catch(() => {});
    await db.release();
  }
  printBenchJson('http', figures);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:http failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
