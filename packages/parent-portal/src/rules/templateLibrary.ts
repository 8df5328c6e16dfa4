import { readFileSync } from 'node:fs';
import { STATUS_TOKENS, type StatusToken } from '@qiraa/decisions';
import type { Gendered } from '@qiraa/identity';
import { type Static, Type } from 'typebox';
import Value from 'typebox/value';

const Text = Type.String({ minLength: 1 });
const TemplateSchema = Type.Object(
  {
    id: Type.String({ pattern: '^HT-[A-Z]+-[0-9]{2}$' }),
    macroDomainId: Type.String({ pattern: '^[a-z][a-z_]*$' }),
    statuses: Type.Array(Type.Unsafe<StatusToken>(Type.String({ enum: [...STATUS_TOKENS] })), { minItems: 1 }),
    text: Type.Object({ male: Text, female: Text, neutral: Text }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
const LibrarySchema = Type.Object(
  { version: Type.String({ pattern: '^[0-9]+$' }), note: Type.String(), templates: Type.Array(TemplateSchema) },
  { additionalProperties: false },
);

export interface HomeTemplate extends Static<typeof TemplateSchema> {
  readonly text: Gendered;
}
export interface TemplateLibrary {
  readonly version: string;
  readonly templates: readonly HomeTemplate[];
}

/** A library file, validated: a malformed library fails the process at start, not a parent's request. */
export function templateLibraryOf(raw: unknown): TemplateLibrary {
  if (!Value.Check(LibrarySchema, raw)) {
    const first = [...Value.Errors(LibrarySchema, raw)][0];
    throw new Error(`parent template library: ${first?.instancePath ?? ''} ${first?.message ?? 'invalid'}`);
  }
  const ids = new Set<string>();
  for (const t of raw.templates) {
    if (ids.has(t.id)) throw new Error(`parent template library: duplicate id ${t.id}`);
    ids.add(t.id);
  }
  return raw as TemplateLibrary;
}

/** Every version kept (a stored choice can be explained later); the highest is in force. */
export const TEMPLATE_LIBRARIES: readonly TemplateLibrary[] = [
  templateLibraryOf(JSON.parse(readFileSync(new URL('./templateLibrary.v1.json', import.meta.url), 'utf8'))),
];
export const CURRENT_TEMPLATE_LIBRARY = TEMPLATE_LIBRARIES[TEMPLATE_LIBRARIES.length - 1]!;

/** At most this many suggestions per call (spec Limits: recommendations per call). */
export const MAX_SUGGESTIONS = 5;

export interface DomainStanding {
  readonly macroDomainId: string;
  readonly status: StatusToken;
}

/**
 * The suggestions for a child's domain standings: one template per domain whose statuses include the domain's
 * status, the domains with the earliest status first (home practice goes where it helps most), catalog order
 * breaking ties; at most five.
 */
export function pickTemplates(
  standings: readonly DomainStanding[],
  library: TemplateLibrary = CURRENT_TEMPLATE_LIBRARY,
): { domain: DomainStanding; template: HomeTemplate }[] {
  const ranked = standings
    .map((domain, order) => ({ domain, order, rank: STATUS_TOKENS.indexOf(domain.status) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
  const picked: { domain: DomainStanding; template: HomeTemplate }[] = [];
  for (const { domain } of ranked) {
    const template = library.templates.find(
      (t) => t.macroDomainId === domain.macroDomainId && t.statuses.includes(domain.status),
    );
    if (template) picked.push({ domain, template });
    if (picked.length === MAX_SUGGESTIONS) break;
  }
  return picked;
}
