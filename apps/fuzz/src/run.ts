import type { FastifyInstance } from 'fastify';
import { buildCase, type FuzzCase, PHASES, phaseOf } from './cases';
import type { FuzzWorld } from './fuzzWorld';
import type { Operation } from './openapi';
import { type Answer, judge } from './oracle';
import { reproLine } from './repro';
import type { FuzzRequest } from './request';

export interface FuzzOptions {
  app: FastifyInstance;
  world: FuzzWorld;
  operations: Operation[];
  seed: number;
  /** Cases per route. */
  cases: number;
  /** Exact "METHOD /path" or a substring of it. */
  route?: string;
  /** Replay only this case index (of each selected route). */
  only?: number;
  /** Called with each failure's repro line as it happens. */
  onFailure?: (line: string) => void;
  /** Called for every case with its answer (`--verbose`). */
  onCase?: (c: FuzzCase, res: Answer, twin?: Answer) => void;
}

export interface Failure {
  line: string;
  problem: string;
  case: FuzzCase;
  status: number;
  body: string;
}

export interface FuzzReport {
  requests: number;
  routes: number;
  failures: Failure[];
  /** Failures grouped by route, case kind and broken rule: the first repro line and how often it happened. */
  distinct: Array<{ key: string; first: Failure; count: number }>;
  statuses: Record<number, number>;
}

async function send(app: FastifyInstance, request: FuzzRequest): Promise<Answer> {
  try {
    return await app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: request.headers,
      ...(request.body === undefined ? {} : { payload: request.body }),
    });
  } catch (error) {
    // A request light-my-request refuses to build is a fuzzer bug: it shows up as a failure, not a crash.
    return { statusCode: 599, headers: {}, body: `inject threw: ${(error as Error).message}` };
  }
}

export function selectOperations(all: Operation[], route?: string): Operation[] {
  if (!route) return all;
  const exact = all.filter((op) => op.key === route);
  return exact.length > 0 ? exact : all.filter((op) => op.key.includes(route));
}

/** Runs the cases against the in-process app; never stops at the first failure. */
export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const ops = selectOperations(o.operations, o.route);
  const plan: Array<{ op: Operation; index: number }> = [];
  for (const op of ops) {
    for (let index = 0; index < o.cases; index += 1) {
      if (o.only === undefined || o.only === index) plan.push({ op, index });
    }
  }
  if (o.only !== undefined && o.only >= o.cases) for (const op of ops) plan.push({ op, index: o.only });
  plan.sort((x, y) => PHASES.indexOf(phaseOf(x.index, x.op)) - PHASES.indexOf(phaseOf(y.index, y.op)));

  const failures: Failure[] = [];
  const statuses: Record<number, number> = {};
  for (const { op, index } of plan) {
    const c = buildCase(op, o.world, o.seed, index);
    const res = await send(o.app, c.request);
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    const twin = c.twin ? await send(o.app, c.twin) : undefined;
    const problem = judge(c, op.secured, res, twin);
    o.onCase?.(c, res, twin);
    if (problem) {
      const line = reproLine(o.seed, c, `${problem} ← ${res.body.slice(0, 160)}`);
      failures.push({ line, problem, case: c, status: res.statusCode, body: res.body });
      o.onFailure?.(line);
    }
  }
  const groups = new Map<string, { key: string; first: Failure; count: number }>();
  for (const f of failures) {
    // The case kind is part of the key: a NUL and a leap second are two bugs even when both answer 500.
    const key = `${f.case.route} | ${f.case.label.replace(/^tenant:.*/, 'tenant')} | ${f.problem}`;
    const g = groups.get(key);
    if (g) g.count += 1;
    else groups.set(key, { key, first: f, count: 1 });
  }
  return { requests: plan.length, routes: ops.length, failures, distinct: [...groups.values()], statuses };
}
