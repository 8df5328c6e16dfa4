import type { LanguageSafetyFilter } from '@qiraa/language-safety';
import { type TSchema, Type } from 'typebox';
import Value from 'typebox/value';

/**
 * The typed allow-list of every parent response (docs/parent-portal.md, "The allow-list"). A response schema
 * admits only these leaves, each tagged with `x-parent`:
 * - `label`: Arabic text written by us or the catalog (a phrase, a domain, a suggestion);
 * - `firstName`: the child's first name;
 * - `date` / `timestamp`: an ISO date, the one place digits may appear, and only in that exact shape;
 * - `handle`: the child's id, only in the child list, because the portal's own paths address the child by it;
 * - `code`: a stable machine key of the spec's error and safe-stop tables (GL-005), one of a closed list written in
 *   the schema: a code, not a number or a text, so the filter does not see it (its parent tier would strip a
 *   rule id out of a sentence) and the screen never shows it.
 * Objects admit no other key (`additionalProperties: false`), so a field nobody listed cannot slip through.
 */
export type ParentLeaf = 'label' | 'firstName' | 'date' | 'timestamp' | 'handle' | 'code';
export const PARENT_LEAF = 'x-parent';

export const Label = (description: string) => Type.String({ minLength: 1, [PARENT_LEAF]: 'label', description });
export const FirstName = () => Type.String({ minLength: 1, [PARENT_LEAF]: 'firstName', description: 'first name' });
export const DateOnly = (description: string) =>
  Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', [PARENT_LEAF]: 'date', description });
export const Timestamp = (description: string) =>
  Type.String({ format: 'date-time', [PARENT_LEAF]: 'timestamp', description });
export const ChildHandle = () =>
  Type.Integer({
    minimum: 1,
    [PARENT_LEAF]: 'handle',
    description: 'the child, as the portal paths address it ({childId}); shown to nobody',
  });
export const SafeStopCode = <C extends string>(codes: readonly [C, ...C[]], description: string) =>
  Type.Unsafe<C>(Type.String({ enum: [...codes], [PARENT_LEAF]: 'code', description }));
export const ParentObject = <T extends Parameters<typeof Type.Object>[0]>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

export interface Rewritten {
  readonly path: string;
  readonly ruleIds: readonly string[];
}

type Node = TSchema & {
  [PARENT_LEAF]?: ParentLeaf;
  enum?: unknown[];
  properties?: Record<string, Node>;
  items?: Node;
  anyOf?: Node[];
  type?: string;
};

/** A response that left the allow-list: a bug of ours, answered 500 with nothing shown. */
export class AllowListError extends Error {
  constructor(readonly path: string) {
    super(`parent response left its allow-list at ${path || '/'}`);
  }
}

/**
 * Runs the parent tier of the language filter over every label and first name of `value` (a rewrite is applied
 * and reported: our own texts are tested to pass, so a rewrite means the rule set grew since), checks each date's
 * exact shape, and checks the whole against the schema. Returns the filtered value.
 */
export function parentSafe<T>(
  schema: TSchema,
  value: T,
  filter: LanguageSafetyFilter,
): { value: T; rewritten: Rewritten[] } {
  const rewritten: Rewritten[] = [];
  const walk = (node: Node, v: unknown, path: string): unknown => {
    if (node[PARENT_LEAF] === 'code') {
      if (typeof v !== 'string' || !node.enum?.includes(v)) throw new AllowListError(path);
      return v;
    }
    if (node.anyOf) {
      if (v === null) return v;
      const branch = node.anyOf.find((n) => n.type !== 'null');
      if (!branch) throw new AllowListError(path);
      return walk(branch, v, path);
    }
    const leaf = node[PARENT_LEAF];
    if (leaf === 'label' || leaf === 'firstName') {
      if (typeof v !== 'string') throw new AllowListError(path);
      const result = filter.check(v, 'parent');
      if (result.kind === 'pass') return v;
      rewritten.push({ path, ruleIds: result.fired.map((f) => f.ruleId) });
      return result.rewritten;
    }
    if (leaf === 'date' || leaf === 'timestamp') {
      if (typeof v !== 'string' || !(leaf === 'date' ? DATE : TIMESTAMP).test(v)) throw new AllowListError(path);
      return v;
    }
    if (leaf === 'handle') {
      if (!Number.isSafeInteger(v)) throw new AllowListError(path);
      return v;
    }
    if (node.type === 'object' && node.properties) {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new AllowListError(path);
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(v)) {
        const sub = node.properties[key];
        if (!sub) throw new AllowListError(`${path}/${key}`);
        out[key] = walk(sub, child, `${path}/${key}`);
      }
      return out;
    }
    if (node.type === 'array' && node.items) {
      if (!Array.isArray(v)) throw new AllowListError(path);
      return v.map((item, i) => walk(node.items!, item, `${path}/${i}`));
    }
    if (node.type === 'boolean' && typeof v === 'boolean') return v;
    // Any other leaf (a number, a free string) is not on the allow-list.
    throw new AllowListError(path);
  };
  const out = walk(schema as Node, value, '') as T;
  if (!Value.Check(schema, out)) {
    throw new AllowListError([...Value.Errors(schema, out)][0]?.instancePath ?? '');
  }
  return { value: out, rewritten };
}

/** Every string leaf of a response the filter must see (the proof test and the PDF use the same walk). */
export function labelsOf(schema: TSchema, value: unknown): string[] {
  const texts: string[] = [];
  const walk = (node: Node, v: unknown) => {
    if (v === null || v === undefined) return;
    if (node.anyOf) return walk(node.anyOf.find((n) => n.type !== 'null')!, v);
    const leaf = node[PARENT_LEAF];
    if ((leaf === 'label' || leaf === 'firstName') && typeof v === 'string') texts.push(v);
    else if (node.type === 'object' && node.properties)
      for (const [k, c] of Object.entries(v as object)) node.properties[k] && walk(node.properties[k], c);
    else if (node.type === 'array' && node.items) for (const item of v as unknown[]) walk(node.items, item);
  };
  walk(schema as Node, value);
  return texts;
}
