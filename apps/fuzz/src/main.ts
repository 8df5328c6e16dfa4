import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildApp } from '@qiraa/app';
import { buildWorld } from '@qiraa/app/testing';
import { loadConfig, openRuntime } from '@qiraa/runtime';
import type { FuzzCase } from './cases';
import { acquireDatabase } from './database';
import { buildFuzzWorld } from './fuzzWorld';
import { operationsOf, readDocument } from './openapi';
import type { Answer } from './oracle';
import { curl } from './repro';
import { runFuzz } from './run';

const JWT_SECRET = 'qiraa-fuzz-secret-0123456789abcdef0123456789';

function integer(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string' },
      seed: { type: 'string' },
      route: { type: 'string' },
      case: { type: 'string' },
      openapi: { type: 'string' },
      verbose: { type: 'boolean' },
    },
    strict: true,
  });
  const cases = integer('--cases', values.cases, 40);
  const seed = integer('--seed', values.seed, randomInt(2 ** 31));
  const only = values.case === undefined ? undefined : integer('--case', values.case, 0);
  const operations = operationsOf(readDocument(values.openapi));

  const db = await acquireDatabase((line) => console.error(line));
  let release = db.release;
  try {
    const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', JWT_SECRET });
    const runtime = await openRuntime(config, { role: 'api' });
    const app = await buildApp(runtime, { logLevel: 'silent' });
    release = async () => {
      await app.close();
      await runtime.close();
      await db.release();
    };
    await app.ready();
    const building = Date.now();
    const world = await buildFuzzWorld(app, await buildWorld({ app }), JWT_SECRET, runtime.sql, runtime);
    console.log(`fuzz: world of two organizations built in ${((Date.now() - building) / 1000).toFixed(1)} s`);
    console.log(
      `fuzz: seed ${seed}, ${cases} cases per route${values.route ? `, routes matching "${values.route}"` : ''}`,
    );
    const started = Date.now();
    const report = await runFuzz({
      app,
      world,
      operations,
      seed,
      cases,
      ...(values.route ? { route: values.route } : {}),
      ...(only === undefined ? {} : { only }),
      onFailure: (line) => console.log(line),
      ...(values.verbose
        ? {
            onCase: (c: FuzzCase, res: Answer, twin?: Answer) =>
              console.log(
                `  ${c.route} #${c.index} ${c.label} ${c.persona.name} → ${res.statusCode}` +
                  (twin ? ` (missing id → ${twin.statusCode})` : '') +
                  (res.statusCode >= 400 ? ` ${res.body.slice(0, 160)}` : '') +
                  ` | ${curl(c.request, c.persona.name)}`,
              ),
          }
        : {}),
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const statuses = Object.entries(report.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    console.log(`fuzz: ${report.requests} requests over ${report.routes} routes in ${seconds} s; statuses ${statuses}`);
    console.log(
      `fuzz: ${report.failures.length} failures, ${report.distinct.length} distinct (route | case kind | rule):`,
    );
    for (const g of report.distinct) console.log(`  ${g.count}× ${g.key}\n     ${g.first.line}`);
    return report.failures.length > 0 ? 1 : 0;
  } finally {
    await release();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`fuzz crashed: ${error.stack ?? error.message}`);
    process.exit(2);
  },
);
