import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operationsOf, readDocument } from './openapi';
import { validArbitrary } from './validArbitrary';

// The server's validator settings as far as they matter here: formats in full mode, OpenAPI keywords.
const ajv = new Ajv({ strict: false, allErrors: true, discriminator: true });
addFormats(ajv, { mode: 'full' });

const operations = operationsOf(readDocument());

describe('validArbitrary: the "valid" half of the fuzzer really is valid', () => {
  it.each(operations.filter((op) => op.body).map((op) => [op.key, op] as const))('%s body', (_key, op) => {
    const check = ajv.compile(op.body as object);
    for (const value of fc.sample(validArbitrary(op.body ?? {}), { seed: 1, numRuns: 25 })) {
      expect(check(value), `${JSON.stringify(value)}\n${ajv.errorsText(check.errors)}`).toBe(true);
    }
  });

  it('every parameter value', () => {
    for (const op of operations) {
      for (const p of op.params) {
        const check = ajv.compile(p.schema as object);
        for (const value of fc.sample(validArbitrary(p.schema), { seed: 1, numRuns: 25 })) {
          expect(check(value), `${op.key} ${p.name}=${JSON.stringify(value)}`).toBe(true);
        }
      }
    }
  });
});
