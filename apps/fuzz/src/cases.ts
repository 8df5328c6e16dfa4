import fc from 'fast-check';
import { type FuzzWorld, type IdSet, type Persona, TENANT_REFS, type TenantRef } from './fuzzWorld';
import { bodySlots, MUTATORS, weightOf } from './mutations';
import type { Operation, Schema } from './openapi';
import { type Draft, type FuzzRequest, render } from './request';
import { validArbitrary } from './validArbitrary';

/** Order of a run: every route's valid requests first, then the tenant probes, then the mutations. */
export type Phase = 'valid' | 'tenant' | 'mutation';
export const PHASES: readonly Phase[] = ['valid', 'tenant', 'mutation'];

export interface FuzzCase {
  route: string;
  index: number;
  phase: Phase;
  /** e.g. `valid`, `tenant:classId`, `mutation:odd-unicode`. */
  label: string;
  persona: Persona;
  request: FuzzRequest;
  /** Set on tenant probes: the field that names organization B's resource. */
  foreignRef?: string;
  /** Set on tenant probes: the same request naming a missing id instead. */
  twin?: FuzzRequest;
  /** The request carries a token the server must refuse. */
  badToken: boolean;
}

/** Case `index` of a route: valid, valid, tenant, then mutations (one more tenant probe at 5); cycles every 8. */
export function phaseOf(index: number, op: Operation): Phase {
  const slot = index % 8;
  if (slot < 2) return 'valid';
  if ((slot === 2 || slot === 5) && tenantRefs(op).length > 0) return 'tenant';
  return 'mutation';
}

/** The world id a parameter or field name stands for, if any. */
export function refName(op: Operation, name: string): TenantRef | 'classCode' | undefined {
  if (name === 'id' && op.path.startsWith('/api/students/{id}')) return 'studentId';
  if (name === 'id' && op.path.startsWith('/api/sse/students/{id}')) return 'studentId';
  if (name === 'id' && op.path.startsWith('/api/reports/students/{id}')) return 'studentId';
  // A report's session: the seeded sitting (the detail answers it when the drawn kind is digital_sitting).
  if (name === 'sessionId' && op.path.startsWith('/api/reports/students/{id}')) return 'sittingId';
  if (name === 'childId' && op.path.startsWith('/api/parent/')) return 'studentId';
  if (name === 'id' && op.path.startsWith('/api/admin/word-lists/{id}')) return 'wordListId';
  if (name === 'id' && op.path.startsWith('/api/word-lists/{id}')) return 'wordListId';
  if (name === 'id' && op.path.startsWith('/api/items/{id}')) return 'itemId';
  if (name === 'id' && op.path.startsWith('/api/diagnostic-sessions/{id}')) return 'sittingId';
  if (name === 'id' && op.path.startsWith('/api/orf/assessments/{id}')) return 'orfAssessmentId';
  if (name === 'classCode') return 'classCode';
  return (TENANT_REFS as readonly string[]).includes(name) ? (name as TenantRef) : undefined;
}

function mentionsRef(op: Operation, s: Schema | undefined, depth = 0): boolean {
  if (!s || depth > 6) return false;
  const alts = [s, ...(s.oneOf ?? []), ...(s.anyOf ?? [])];
  return alts.some(
    (alt) =>
      Object.entries(alt.properties ?? {}).some(
        ([k, sub]) =>
          (refName(op, k) !== undefined && refName(op, k) !== 'classCode') || mentionsRef(op, sub, depth + 1),
      ) ||
      (alt !== s && mentionsRef(op, alt, depth + 1)),
  );
}

/** Parameters (and whether the body has fields) naming tenant resources: where a tenant probe can put B's id. */
function tenantRefs(op: Operation): string[] {
  // A public route has no caller organization to keep apart (student login names any class by design).
  if (!op.secured) return [];
  const params = op.params.filter((p) => {
    const ref = refName(op, p.name);
    return ref !== undefined && ref !== 'classCode';
  });
  return [...params.map((p) => `${p.in}:${p.name}`), ...(mentionsRef(op, op.body) ? ['body'] : [])];
}

const destructive = (op: Operation) => op.method === 'DELETE' || /\/(deactivate|rescind|retire)$/.test(op.path);

/** Valid values for `op`, naming world ids where the schema asks for one of them. */
/** `from` after `to` is refused before anything else is read (422), so a valid window runs forward. */
function ordered(query: Array<[string, string]>): Array<[string, string]> {
  const from = query.find(([k]) => k === 'from');
  const to = query.find(([k]) => k === 'to');
  if (from && to && Date.parse(from[1]) > Date.parse(to[1])) [from[1], to[1]] = [to[1], from[1]];
  return query;
}

/** The schema with every property that names a tenant resource made required, so a tenant probe has one to hit. */
function requireRefs(op: Operation, s: Schema | undefined): Schema | undefined {
  if (!s) return s;
  const props = s.properties
    ? Object.fromEntries(Object.entries(s.properties).map(([k, sub]) => [k, requireRefs(op, sub) as Schema]))
    : undefined;
  const refs = Object.keys(s.properties ?? {}).filter((k) => refName(op, k) && refName(op, k) !== 'classCode');
  return {
    ...s,
    ...(props ? { properties: props, required: [...new Set([...(s.required ?? []), ...refs])] } : {}),
    ...(s.oneOf ? { oneOf: s.oneOf.map((x) => requireRefs(op, x) as Schema) } : {}),
    ...(s.anyOf ? { anyOf: s.anyOf.map((x) => requireRefs(op, x) as Schema) } : {}),
    ...(s.items ? { items: requireRefs(op, s.items) as Schema } : {}),
  };
}

function draftArb(op: Operation, world: FuzzWorld, ids: 'mixed' | 'own'): fc.Arbitrary<Draft> {
  const own: IdSet = destructive(op) ? world.ownExpendable : world.own;
  const override = (name: string, schema: Schema) => {
    const ref = refName(op, name);
    if (!ref) return undefined;
    if (ids === 'own') return fc.constant(own[ref]);
    return fc.oneof(
      { arbitrary: fc.constant(own[ref]), weight: 6 },
      { arbitrary: fc.constant(world.missing[ref]), weight: 1 },
      { arbitrary: validArbitrary(schema), weight: 1 },
    );
  };
  const pathParams = op.params.filter((p) => p.in === 'path');
  // An opaque cursor only the server can mint: a random one is refused (422) and hides the rest of the request.
  const queryParams = op.params.filter((p) => p.in === 'query' && p.name !== 'cursor');
  const headerParams = op.params.filter((p) => p.in === 'header');
  const record = (params: typeof op.params) =>
    fc.record(Object.fromEntries(params.map((p) => [p.name, validArbitrary(p.schema, override, p.name)])), {
      requiredKeys: params.filter((p) => p.required).map((p) => p.name),
    });
  const bodySchema = ids === 'own' ? requireRefs(op, op.body) : op.body;
  const body = bodySchema ? validArbitrary(bodySchema, override) : fc.constant(undefined);
  return fc
    .tuple(record(pathParams), record(queryParams), record(headerParams), body)
    .map(([pathValues, query, headers, value]) => ({
      method: op.method,
      path: op.path,
      pathValues,
      rawPath: {},
      query: ordered(Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string])),
      rawQuery: [],
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
      ...(value === undefined ? {} : { body: value }),
      rawTokens: [],
    }));
}

function personaArb(world: FuzzWorld, scope?: Persona['scope']): fc.Arbitrary<Persona> {
  const pool = world.personas.filter((p) => !scope || p.scope === scope);
  // The powerful callers reach furthest into a route, so they get most requests.
  return fc.oneof(
    ...pool.map((p) => ({
      arbitrary: fc.constant(p),
      weight: p.name === 'super' || p.name === 'a.admin' ? 4 : 1,
    })),
  );
}

const withPersona = (d: Draft, p: Persona): Draft =>
  p.authorization ? { ...d, headers: { ...d.headers, authorization: p.authorization } } : d;

interface TenantProbe {
  draft: Draft;
  /** The same request naming a well-formed id nothing has: B's resource must answer exactly like it. */
  twin: Draft;
  ref: string;
  persona: Persona;
}

/** Puts B's id (and, in the twin, a missing id) into one tenant reference of a valid request of A's caller. */
function tenantArb(op: Operation, world: FuzzWorld): fc.Arbitrary<TenantProbe> {
  return fc
    .tuple(draftArb(op, world, 'own'), personaArb(world, 'a'), fc.constantFrom(...tenantRefs(op)))
    .chain(([start, persona, where]) => {
      const draft = withPersona(start, persona);
      const naming = (ids: IdSet, ref: TenantRef, place: string, name: string): Draft => {
        const next = structuredClone(draft);
        if (place === 'path') next.pathValues[name] = ids[ref];
        else next.query = [...next.query.filter(([k]) => k !== name), [name, String(ids[ref])]];
        return next;
      };
      if (where !== 'body') {
        const [place, name] = where.split(':') as ['path' | 'query', string];
        const ref = refName(op, name) as TenantRef;
        return fc.constant({
          draft: naming(world.foreign, ref, place, name),
          twin: naming(world.missing, ref, place, name),
          ref: where,
          persona,
        });
      }
      const fields = bodySlots(draft.body, op.body).filter((s) => {
        if (s.where !== 'body') return false;
        const last = s.at[s.at.length - 1];
        return typeof last === 'string' && refName(op, last) !== undefined && refName(op, last) !== 'classCode';
      });
      // A union branch without a reference (e.g. a kind of event that names no student): probe nothing.
      if (fields.length === 0) return fc.constant({ draft, twin: draft, ref: 'none', persona });
      return fc.constantFrom(...fields).map((slot) => {
        const at = (slot as { at: Array<string | number> }).at;
        const ref = refName(op, at[at.length - 1] as string) as TenantRef;
        const withBody = (ids: IdSet): Draft => {
          const body = structuredClone(draft.body) as Record<string | number, unknown>;
          let cursor = body;
          for (const key of at.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
          cursor[at[at.length - 1] as string] = ids[ref];
          return { ...draft, body };
        };
        return { draft: withBody(world.foreign), twin: withBody(world.missing), ref: `body:${at.join('.')}`, persona };
      });
    });
}

/** 32-bit FNV-1a of the run seed, route and index: each case replays alone from its own seed. */
export function caseSeed(seed: number, route: string, index: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of `${route}#${index}`) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193);
  return h | 0;
}

export function buildCase(op: Operation, world: FuzzWorld, seed: number, index: number): FuzzCase {
  const phase = phaseOf(index, op);
  const base = { route: op.key, index, phase };
  const sample = <T>(arb: fc.Arbitrary<T>): T =>
    fc.sample(arb, { seed: caseSeed(seed, op.key, index), numRuns: 1 })[0] as T;
  if (phase === 'valid') {
    const { draft, persona } = sample(fc.record({ draft: draftArb(op, world, 'mixed'), persona: personaArb(world) }));
    return { ...base, label: 'valid', persona, request: render(withPersona(draft, persona)), badToken: false };
  }
  if (phase === 'tenant') {
    const { draft, twin, ref, persona } = sample(tenantArb(op, world));
    if (ref === 'none') return { ...base, label: 'tenant:none', persona, request: render(draft), badToken: false };
    return {
      ...base,
      label: `tenant:${ref}`,
      persona,
      request: render(draft),
      foreignRef: ref,
      twin: render(twin),
      badToken: false,
    };
  }
  const mutators = MUTATORS.filter((m) => m.name !== 'bad-token' || op.secured);
  const picked = sample(
    fc.record({ draft: draftArb(op, world, 'mixed'), persona: personaArb(world), index: fc.nat() }).chain((r) => {
      const start = withPersona(r.draft, r.persona);
      const usable = mutators.filter((m) => m.applies(op, start));
      const total = usable.reduce((sum, m) => sum + weightOf(m), 0);
      const ticket = r.index % total;
      let seen = 0;
      const mutator =
        usable.find((m) => {
          seen += weightOf(m);
          return ticket < seen;
        }) ?? mutators[0];
      if (!mutator) throw new Error('no mutator');
      return mutator.arb(op, start, world).map((draft) => ({ draft, mutator: mutator.name, persona: r.persona }));
    }),
  );
  const badToken = picked.mutator === 'bad-token';
  return {
    ...base,
    label: `mutation:${picked.mutator}`,
    persona: badToken ? { name: 'bad-token', scope: 'none' } : picked.persona,
    request: render(picked.draft),
    badToken,
  };
}
