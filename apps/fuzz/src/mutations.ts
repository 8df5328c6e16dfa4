import fc from 'fast-check';
import type { FuzzWorld } from './fuzzWorld';
import type { Operation, Schema } from './openapi';
import { type Draft, rawPlaceholder } from './request';

type Key = string | number;

/** A place a mutation can hit: a value inside the JSON body, or a path or query parameter. */
type Slot =
  | { where: 'body'; at: Key[]; value: unknown; schema?: Schema }
  | { where: 'path' | 'query'; name: string; schema: Schema };

export interface Mutator {
  name: string;
  /** Relative chance among the mutators that apply: narrow ones (dates) get more, so they are not drowned. */
  weight?: number;
  applies(op: Operation, d: Draft): boolean;
  arb(op: Operation, d: Draft, world: FuzzWorld): fc.Arbitrary<Draft>;
}

const clone = (d: Draft): Draft => structuredClone(d);

function childSchema(s: Schema | undefined, key: Key): Schema | undefined {
  if (!s) return undefined;
  if (typeof key === 'number') return s.items;
  for (const alt of [s, ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
    const hit = alt.properties?.[key];
    if (hit) return hit;
  }
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

export function bodySlots(value: unknown, schema: Schema | undefined, at: Key[] = []): Slot[] {
  const here: Slot = { where: 'body', at, value, ...(schema ? { schema } : {}) };
  if (Array.isArray(value)) return [here, ...value.flatMap((v, i) => bodySlots(v, childSchema(schema, i), [...at, i]))];
  if (value && typeof value === 'object') {
    return [here, ...Object.entries(value).flatMap(([k, v]) => bodySlots(v, childSchema(schema, k), [...at, k]))];
  }
  return [here];
}

function slots(op: Operation, d: Draft): Slot[] {
  const params: Slot[] = op.params
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => ({ where: p.in as 'path' | 'query', name: p.name, schema: p.schema }));
  return [...params, ...(d.body === undefined ? [] : bodySlots(d.body, op.body))];
}

function setAt(root: unknown, at: Key[], value: unknown): unknown {
  if (at.length === 0) return value;
  const [head, ...rest] = at as [Key, ...Key[]];
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<Key, unknown>;
  copy[head] = setAt(copy[head], rest, value);
  return copy;
}

function deleteAt(root: unknown, at: Key[]): unknown {
  if (at.length === 1) {
    if (Array.isArray(root)) return root.filter((_, i) => i !== at[0]);
    const { [at[0] as string]: _gone, ...rest } = root as Record<string, unknown>;
    return rest;
  }
  const [head, ...tail] = at as [Key, ...Key[]];
  return setAt(root, [head], deleteAt((root as Record<Key, unknown>)[head], tail));
}

/** Percent-encodes code unit by code unit, so lone surrogates become (invalid UTF-8) bytes instead of throwing. */
function looseEncode(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** Puts `value` in the slot: typed in the body, as text (encoded unless `raw`) in a parameter. */
function put(d: Draft, slot: Slot, value: unknown, raw = false): Draft {
  const next = clone(d);
  if (slot.where === 'body') {
    next.body = setAt(next.body, slot.at, value);
    return next;
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (slot.where === 'path') {
    next.rawPath[slot.name] = raw ? text : looseEncode(text);
    return next;
  }
  next.query = next.query.filter(([k]) => k !== slot.name);
  next.rawQuery = [...next.rawQuery, `${encodeURIComponent(slot.name)}=${raw ? text : looseEncode(text)}`];
  return next;
}

const looksLikeDate = (slot: Slot) =>
  slot.where === 'body' && typeof slot.value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(slot.value);

const isType = (slot: Slot, ...types: string[]) => {
  const t = slot.schema?.type;
  return types.some((x) => t === x || (Array.isArray(t) && t.includes(x)));
};
const isString = (slot: Slot) =>
  slot.where === 'body' ? typeof slot.value === 'string' : isType(slot, 'string') || !slot.schema?.type;
const isNumeric = (slot: Slot) =>
  slot.where === 'body' ? typeof slot.value === 'number' : isType(slot, 'integer', 'number');

/** Picks one slot matching `keep`, then one of `values(slot)`, and writes it. */
function slotMutator(
  name: string,
  keep: (slot: Slot) => boolean,
  values: (slot: Slot) => fc.Arbitrary<{ value: unknown; raw?: boolean; token?: string }>,
): Mutator {
  return {
    name,
    applies: (op, d) => slots(op, d).some(keep),
    arb: (op, d) =>
      fc
        .constantFrom(...slots(op, d).filter(keep))
        .chain((slot) => values(slot).map((v) => ({ slot, v })))
        .map(({ slot, v }) => {
          if (v.token !== undefined && slot.where === 'body') {
            const next = put(d, slot, rawPlaceholder(d.rawTokens.length));
            next.rawTokens = [...d.rawTokens, v.token];
            return next;
          }
          return put(d, slot, v.token ?? v.value, v.raw ?? false);
        }),
  };
}

const plain = (...values: unknown[]) => fc.constantFrom(...values).map((value) => ({ value }));

const ODD_CHARS = [
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\uFEFF',
  '\u202E',
  '\u200D',
  '\u0301',
  '\u{1F600}',
  '\uFFFF',
  '\uFFFE',
  '\u0640',
  '\r\n',
  '\u2028',
  '\uFDFA',
  '\u0660\u0661',
  '\\',
  "'; --",
  '%s%n',
  '../',
];

const DATE_TIMES = [
  '2026-13-45T00:00:00Z',
  '2026-02-30T10:00:00Z',
  '2026-06-30T23:59:60Z',
  '2016-12-31T23:59:60Z',
  '2026-01-01T24:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999Z',
  '+275760-09-13T00:00:00.000Z',
  '2026-01-01T10:00:00+25:00',
  '2026-01-01T10:00:00',
  '2026-01-01',
  '2026-13-45',
  '2026-02-30',
  '0000-00-00',
  '1969-12-31T23:59:59Z',
  'now',
];

const BAD_PERCENT = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%00',
  '%2F',
  '..%2F..%2F',
  '%25%',
  '%FF%FE',
  '%u0041',
];

const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '1',
  'true',
  '{"a":1,}',
  "{'a':1}",
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(20000)}${']'.repeat(20000)}`,
  `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
];

const CONTENT_TYPES = [
  null,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/vnd.api+json',
  'application/xml',
  '*/*',
  '',
  'application/json, text/plain',
];

export const MUTATORS: Mutator[] = [
  slotMutator(
    'wrong-type',
    () => true,
    (slot) =>
      slot.where === 'body'
        ? plain(null, true, 0, -1, 1.5, '', 'x', [], {}, [1], { a: 1 })
        : plain('true', 'null', '[]', '{}', 'abc', '', ' ', '1,2'),
  ),
  slotMutator('out-of-range', isNumeric, (slot) => {
    const s = slot.schema ?? {};
    const near = [s.minimum, s.maximum]
      .filter((x): x is number => typeof x === 'number')
      .flatMap((x) => [x - 1, x + 1, x + 0.5]);
    if (slot.where === 'body') {
      return fc.oneof(
        plain(...near, 0, -1, 1.5, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, Number.MIN_VALUE),
        fc
          .constantFrom('1e999', '-0', '18446744073709551616', '1.0e2', '9007199254740993', '-1e-400')
          .map((token) => ({ value: token, token })),
      );
    }
    return plain(
      ...near.map(String),
      '0',
      '-1',
      '1.5',
      '1e3',
      '99999999999999999999',
      '9007199254740993',
      '9223372036854775808',
      '0x1F',
      '\u0661\u0662',
      'Infinity',
      'NaN',
      '-0',
      ' 1',
    );
  }),
  slotMutator('long-string', isString, (slot) => {
    const max = slot.schema?.maxLength ?? 255;
    return plain('x'.repeat(max + 1), 'ب'.repeat(max + 1), 'a'.repeat(slot.where === 'body' ? 100_000 : 8_000));
  }),
  slotMutator('odd-unicode', isString, (slot) =>
    fc
      .tuple(
        // NUL first: PostgreSQL text refuses it, so it is the character most likely to turn into a 500.
        fc.oneof(
          { arbitrary: fc.constant('\u0000'), weight: 1 },
          { arbitrary: fc.constantFrom(...ODD_CHARS), weight: 2 },
        ),
        fc.constantFrom('prefix', 'suffix', 'alone', 'middle'),
      )
      .map(([ch, where]) => {
        const base = slot.where === 'body' && typeof slot.value === 'string' ? slot.value : 'abc';
        const mid = Math.floor(base.length / 2);
        const value =
          where === 'prefix'
            ? ch + base
            : where === 'suffix'
              ? base + ch
              : where === 'alone'
                ? ch
                : base.slice(0, mid) + ch + base.slice(mid);
        return { value };
      }),
  ),
  slotMutator(
    'bad-percent-encoding',
    (slot) => slot.where !== 'body',
    () => fc.constantFrom(...BAD_PERCENT).map((value) => ({ value, raw: true })),
  ),
  {
    ...slotMutator(
      'date-time',
      (slot) => slot.schema?.format === 'date-time' || slot.schema?.format === 'date' || looksLikeDate(slot),
      () => plain(...DATE_TIMES),
    ),
    weight: 4,
  },
  {
    name: 'missing-key',
    applies: (op, d) => d.body !== undefined || op.params.some((p) => p.required),
    arb: (op, d) => {
      const options: Array<() => Draft> = [];
      for (const p of op.params.filter((x) => x.required && x.in === 'query')) {
        options.push(() => ({ ...clone(d), query: d.query.filter(([k]) => k !== p.name) }));
      }
      if (d.body !== undefined) {
        options.push(() => ({ ...clone(d), body: undefined }));
        for (const slot of bodySlots(d.body, op.body)) {
          if (slot.where === 'body' && slot.at.length > 0) {
            options.push(() => ({ ...clone(d), body: deleteAt(d.body, (slot as { at: Key[] }).at) }));
          }
        }
      }
      if (options.length === 0) options.push(() => clone(d));
      return fc.constantFrom(...options).map((make) => make());
    },
  },
  {
    name: 'extra-key',
    applies: () => true,
    arb: (op, d) =>
      fc.tuple(fc.constantFrom('unexpected', '__proto__', 'constructor', ''), fc.boolean()).map(([key, inQuery]) => {
        const next = clone(d);
        const objects = bodySlots(d.body, op.body).filter(
          (s) => s.where === 'body' && s.value !== null && typeof s.value === 'object' && !Array.isArray(s.value),
        );
        if (inQuery || objects.length === 0) {
          next.rawQuery = [...next.rawQuery, `${encodeURIComponent(key || 'x')}=1`];
          return next;
        }
        const target = objects[key.length % objects.length] as { at: Key[]; value: Record<string, unknown> };
        const widened = { ...target.value };
        Object.defineProperty(widened, key, { value: { polluted: true }, enumerable: true });
        next.body = setAt(d.body, target.at, widened);
        return next;
      }),
  },
  {
    name: 'malformed-json',
    applies: (op) => op.method !== 'GET',
    arb: (_op, d) => fc.constantFrom(...MALFORMED_JSON).map((text) => ({ ...clone(d), bodyText: text })),
  },
  {
    name: 'content-type',
    applies: (op) => op.method !== 'GET',
    arb: (_op, d) =>
      fc.constantFrom(...CONTENT_TYPES).map((type) => ({
        ...clone(d),
        bodyText: d.bodyText ?? JSON.stringify(d.body ?? {}),
        contentType: type,
      })),
  },
  {
    name: 'huge-body',
    applies: (op) => op.method !== 'GET',
    arb: (_op, d) =>
      fc.constantFrom(1_100_000, 5_000_000).map((size) => ({
        ...clone(d),
        bodyText: JSON.stringify({ ...(d.body as object), pad: 'a'.repeat(size) }),
      })),
  },
  {
    name: 'query-shape',
    applies: (op) => op.params.some((p) => p.in === 'query'),
    arb: (op, d) =>
      fc
        .tuple(fc.constantFrom(...op.params.filter((p) => p.in === 'query').map((p) => p.name)), fc.nat(4))
        .map(([name, shape]) => {
          const next = clone(d);
          const k = encodeURIComponent(name);
          const forms = [`${k}=1&${k}=2`, `${k}[]=1`, `${k}[x]=1`, `${k}=`, k];
          next.query = next.query.filter(([q]) => q !== name);
          next.rawQuery = [...next.rawQuery, forms[shape] as string];
          return next;
        }),
  },
  {
    name: 'routing',
    applies: () => true,
    arb: (op, d) =>
      fc
        .constantFrom<(next: Draft) => void>(
          (next) => {
            next.method = 'OPTIONS';
          },
          (next) => {
            next.method = 'HEAD';
          },
          (next) => {
            next.method = 'TRACE';
          },
          (next) => {
            next.method = 'PROPFIND';
          },
          (next) => {
            next.method = op.method === 'GET' ? 'PATCH' : 'GET';
          },
          (next) => {
            next.path = `${next.path}/`;
          },
          (next) => {
            next.path = next.path.replace('/api/', '/api//');
          },
          (next) => {
            next.path = next.path.toUpperCase().replace(/\{([^}]+)\}/g, (m) => m.toLowerCase());
          },
          (next) => {
            next.path = `${next.path}/unknown`;
          },
          (next) => {
            next.path = next.path.replace('/api/', '/api/%zz');
          },
          (next) => {
            next.path = next.path.replace('/api/', '/api/%C0%AF/');
          },
          (next) => {
            next.path = `${next.path}%`;
          },
          (next) => {
            next.path = next.path.replace('/api/', '/api/./../api/');
          },
          (next) => {
            next.path = `${next.path};jsessionid=1`;
          },
        )
        .map((change) => {
          const next = clone(d);
          change(next);
          return next;
        }),
  },
  {
    name: 'bad-token',
    applies: () => true,
    arb: (_op, d, world) =>
      fc.constantFrom(...world.badTokens).map((persona) => {
        const next = clone(d);
        next.headers.authorization = persona.authorization as string;
        return next;
      }),
  },
];

/**
 * Narrow mutators (dates, numbers, text, paths) get more picks than the ones that apply to every route, so a
 * route with one date field still sees its date mutated in a short run.
 */
const WEIGHTS: Record<string, number> = { 'odd-unicode': 2, 'out-of-range': 2, 'bad-percent-encoding': 2 };
export const weightOf = (m: Mutator): number => m.weight ?? WEIGHTS[m.name] ?? 1;
