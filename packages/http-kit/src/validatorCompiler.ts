import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from './apiError';
import { validationDetails } from './validationDetails';

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const base: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  discriminator: true,
};
// Bodies are JSON and must already have the right types; query strings and params are text and are coerced.
const bodyAjv = addFormats(new Ajv({ ...base, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

type Schema = Record<string, unknown>;

/** Every body object that does not say otherwise refuses keys it does not declare. */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) out[key] = closeObjects(value);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return bodyAjv.compile(closeObjects(schema) as Schema);
  return textAjv.compile(schema as Schema);
};

/** The body validator routes use, for bodies that arrive another way (NDJSON files in the CLI). */
export function compileBodyValidator(
  schema: unknown,
): (value: unknown) => { ok: true } | { ok: false; details: ErrorDetail[] } {
  const validate = bodyAjv.compile(closeObjects(schema) as Schema);
  return (value) => (validate(value) ? { ok: true } : { ok: false, details: validationDetails(validate.errors ?? []) });
}
