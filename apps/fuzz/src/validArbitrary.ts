import fc from 'fast-check';
import type { Schema } from './openapi';

/** Lets the caller supply values by property or parameter name (world ids instead of random ones). */
export type Override = (name: string, schema: Schema) => fc.Arbitrary<unknown> | undefined;

const INT32 = 2 ** 31 - 1;
const YEAR_2000 = new Date('2000-01-01T00:00:00Z');
const YEAR_2100 = new Date('2099-12-31T23:59:59Z');
const EDGE_DATE_TIMES = [
  '2016-12-31T23:59:60Z',
  '2026-06-30T23:59:60Z',
  '2026-03-29T02:30:00+03:00',
  '2026-01-01T00:00:00.123456789Z',
  '2026-01-01t10:00:00z',
  '2026-01-01T10:00:00-00:00',
  '1970-01-01T00:00:00Z',
  '2026-02-28T23:59:59+14:00',
];
/** Integers a schema without `maximum` allows and a bigint column or a Number may not hold. */
const HUGE_INTEGERS = [2 ** 31, 2 ** 53 - 1, 2 ** 53, 2 ** 63, 1e20, 1e300];
const ARABIC = fc.constantFrom(...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي ءآأإةى'.split(''));
const ARABIC_LETTER = fc.constantFrom(...'ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأإةى'.split(''));
const TEXT_UNITS = fc.oneof(fc.constantFrom<'grapheme-ascii'>('grapheme-ascii'), fc.constant(ARABIC));

function text(min: number, max: number): fc.Arbitrary<string> {
  const upper = Math.min(max, min + 24);
  return TEXT_UNITS.chain((unit) => fc.string({ unit, minLength: min, maxLength: upper }));
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 10_000;
  const fits = (v: string) => [...v].length >= min && [...v].length <= max;
  switch (s.format) {
    case 'email':
      return fc.emailAddress({ size: 'small' }).filter(fits);
    case 'date-time':
      return fc.oneof(
        {
          arbitrary: fc.date({ min: YEAR_2000, max: YEAR_2100, noInvalidDate: true }).map((d) => d.toISOString()),
          weight: 6,
        },
        // RFC 3339 allows these, so they are valid input a handler must cope with.
        { arbitrary: fc.constantFrom(...EDGE_DATE_TIMES), weight: 1 },
      );
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'uuid':
      return fc.uuid({ version: 4 });
  }
  if (s.pattern?.includes('\\p{')) {
    // fast-check cannot generate from Unicode property classes: Arabic words joined by single spaces, kept
    // when the pattern (with the u flag, as ajv compiles it) and the length agree.
    const pattern = new RegExp(s.pattern, 'u');
    const word = fc.array(ARABIC_LETTER, { minLength: 1, maxLength: 6 }).map((l) => l.join(''));
    return fc
      .array(word, { minLength: 1, maxLength: 3 })
      .map((w) => w.join(' '))
      .filter((v) => pattern.test(v) && fits(v));
  }
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern), { size: 'small' }).filter(fits);
  return text(min, max);
}

function integerArb(s: Schema): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -INT32);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : INT32);
  if (s.maximum === undefined && s.exclusiveMaximum === undefined) {
    const huge = HUGE_INTEGERS.filter((n) => n >= min);
    return fc.oneof(
      { arbitrary: fc.integer({ min, max }), weight: 5 },
      { arbitrary: fc.constantFrom(...huge), weight: 1 },
    );
  }
  if (min >= -INT32 - 1 && max <= INT32) return fc.integer({ min, max });
  // Ids allow up to 2^53-1: mostly small values near the bottom (where real rows are), sometimes anywhere.
  const near = fc.integer({ min: Math.max(min, -INT32), max: Math.min(max, Math.max(min, 0) + 1000) });
  return fc.oneof(
    { arbitrary: near, weight: 4 },
    { arbitrary: fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number), weight: 1 },
  );
}

function objectArb(s: Schema, override: Override): fc.Arbitrary<unknown> {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(props)) model[name] = validArbitrary(sub, override, name);
  let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(model, {
    requiredKeys: Object.keys(props).filter((k) => required.has(k)),
  });
  if (typeof s.additionalProperties === 'object' && Object.keys(props).length === 0) {
    const value = validArbitrary(s.additionalProperties, override);
    arb = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/), value, { maxKeys: s.maxProperties ?? 5 });
  }
  const minProps = s.minProperties ?? 0;
  return minProps > 0 ? arb.filter((o) => Object.keys(o).length >= minProps) : arb;
}

/** Values that satisfy `schema` (as far as the generator knows it): the "valid request" half of the fuzzer. */
export function validArbitrary(schema: Schema, override: Override = () => undefined, name = ''): fc.Arbitrary<unknown> {
  const given = override(name, schema);
  if (given) return given;
  const base = baseArbitrary(schema, override, name);
  // OpenAPI 3.0.3: `nullable` does not widen an `enum`; null is allowed only when the enum lists it.
  const nullable = schema.nullable && (!schema.enum || schema.enum.includes(null));
  return nullable ? fc.oneof({ arbitrary: base, weight: 5 }, { arbitrary: fc.constant(null), weight: 1 }) : base;
}

function baseArbitrary(s: Schema, override: Override, name: string): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((sub) => validArbitrary(sub, override, name)));
  if (s.allOf?.length === 1 && s.allOf[0]) return validArbitrary(s.allOf[0], override, name);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : (s.type ?? (s.properties ? 'object' : ''));
  switch (type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return integerArb(s);
    case 'number':
      return fc.double({
        min: s.minimum ?? -1e9,
        max: s.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? 5, min + 4);
      const items = validArbitrary(s.items ?? {}, override);
      return s.uniqueItems
        ? fc.uniqueArray(items, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength: min, maxLength: max });
    }
    case 'object':
      return objectArb(s, override);
    case 'null':
      return fc.constant(null);
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean());
  }
}
