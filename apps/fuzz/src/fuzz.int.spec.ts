import { TEST_JWT_SECRET, useTestWorld } from '@qiraa/app/testing';
import { expect, it } from 'vitest';
import { buildFuzzWorld } from './fuzzWorld';
import { operationsOf, readDocument } from './openapi';
import { runFuzz } from './run';

/** The short run of `npm test`; long runs: `npm run fuzz -- --cases N --seed S` (docs/fuzzing.md). */
const SEED = 20_261_123;
const CASES = 8;

const { t, w } = useTestWorld();

it(`answers every route of docs/openapi.json without a 5xx, with the envelope, tenants apart (seed ${SEED})`, async () => {
  const operations = operationsOf(readDocument());
  const world = await buildFuzzWorld(t.app, w, TEST_JWT_SECRET, t.db.sql, t.runtime);
  const report = await runFuzz({
    app: t.app,
    world,
    operations,
    seed: SEED,
    cases: CASES,
  });
  expect(report.routes).toBe(operations.length);
  expect(report.requests).toBe(operations.length * CASES);
  // One repro line per failure: the message is the list to work from.
  expect(report.failures.map((f) => f.line)).toEqual([]);
}, 180_000);
