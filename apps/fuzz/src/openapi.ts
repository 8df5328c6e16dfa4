import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The subset of JSON Schema our OpenAPI document uses (TypeBox output, OpenAPI 3.0 `nullable`). */
export type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  minProperties?: number;
  maxProperties?: number;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  default?: unknown;
};

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** The OpenAPI path, e.g. /api/classes/{classId}/students */
  path: string;
  params: Param[];
  body?: Schema;
  /** Whether the document asks for a bearer token. */
  secured: boolean;
  /** "GET /api/classes/{classId}", the name --route matches and repro lines print. */
  key: string;
}

interface Document {
  paths: Record<string, Record<string, RawOperation>>;
}
interface RawOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: unknown[];
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

export const DEFAULT_OPENAPI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/openapi.json');

export function readDocument(file = DEFAULT_OPENAPI): Document {
  return JSON.parse(readFileSync(file, 'utf8')) as Document;
}

/** Every path and method of the document, in document order. */
export function operationsOf(doc: Document): Operation[] {
  const out: Operation[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      if (!METHODS.has(method)) continue;
      const params: Param[] = (raw.parameters ?? [])
        .filter((x) => x.in === 'path' || x.in === 'query' || x.in === 'header')
        .map((x) => ({
          name: x.name,
          in: x.in as Param['in'],
          required: x.in === 'path' || Boolean(x.required),
          schema: x.schema ?? { type: 'string' },
        }));
      const body = raw.requestBody?.content?.['application/json']?.schema;
      const upper = method.toUpperCase();
      out.push({
        method: upper,
        path: p,
        params,
        ...(body ? { body } : {}),
        secured: (raw.security?.length ?? 0) > 0,
        key: `${upper} ${p}`,
      });
    }
  }
  return out;
}
