import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from './apiError';
import { installFormats } from './formats';
import { unstorableTextErrors } from './unstorableText';
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
const bodyAjv = installFormats(addFormats(new Ajv({ ...base, coerceTypes: false })));
const textAjv = installFormats(addFormats(new Ajv({ ...base, coerceTypes: 'array' })));

type Schema = Record<string, unknown>;
type FastifyValidationResult = ReturnType<FastifySchemaCompiler<unknown>>;

/** Maps every schema node, children first; the route's own schema is left as it was. */
function mapSchema(schema: unknown, visit: (node: Schema) => Schema): unknown {
  if (Array.isArray(schema)) return schema.map((item) => mapSchema(item, visit));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) out[key] = mapSchema(value, visit);
  return visit(out);
}

/** Every body object that does not say otherwise refuses keys it does not declare. */
export function closeObjects(schema: unknown): unknown {
  return mapSchema(schema, (node) =>
    node.type === 'object' && node.properties && node.additionalProperties === undefined
      ? { ...node, additionalProperties: false }
      : node,
  );
}

const isInteger = (node: Schema) =>
  node.type === 'integer' || (Array.isArray(node.type) && (node.type as unknown[]).includes('integer'));

/**
 * Every integer a schema leaves unbounded stays within ±Number.MAX_SAFE_INTEGER: a larger one is no longer exact
 * in JavaScript and overflows a `bigint` column. Ids and `integer` columns declare tighter bounds (ids.ts).
 */
export function boundIntegers(schema: unknown): unknown {
  return mapSchema(schema, (node) => {
    if (!isInteger(node)) return node;
    const bounded = { ...node };
    if (bounded.maximum === undefined && bounded.exclusiveMaximum === undefined) {
      bounded.maximum = Number.MAX_SAFE_INTEGER;
    }
    if (bounded.minimum === undefined && bounded.exclusiveMinimum === undefined) {
      bounded.minimum = -Number.MAX_SAFE_INTEGER;
    }
    return bounded;
  });
}

/** The schema's validator, that also refuses text PostgreSQL cannot store (unstorableText.ts). */
function refusingUnstorableText(validate: ValidateFunction): FastifyValidationResult {
  const check = ((data: unknown, context?: unknown) => {
    const valid = (validate as (data: unknown, context?: unknown) => boolean)(data, context);
    const unstorable = unstorableTextErrors(data);
    const errors: ErrorObject[] = [...(valid ? [] : (validate.errors ?? [])), ...unstorable];
    check.errors = errors.length > 0 ? errors : null;
    return valid && unstorable.length === 0;
  }) as FastifyValidationResult & { schemaEnv?: unknown };
  // fastify hands ajv the parent of the value (so a coerced root value is written back) only when it sees this.
  check.schemaEnv = validate.schemaEnv;
  return check;
}

// Routes share schema objects (an id's params, a page's query): one validator each, as ajv's own cache would.
const compiledBodies = new WeakMap<object, FastifyValidationResult>();
const compiledTexts = new WeakMap<object, FastifyValidationResult>();

function compileOnce(
  cache: WeakMap<object, FastifyValidationResult>,
  schema: object,
  compile: () => FastifyValidationResult,
) {
  let validate = cache.get(schema);
  if (!validate) {
    validate = compile();
    cache.set(schema, validate);
  }
  return validate;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === 'body') {
    return compileOnce(compiledBodies, schema as object, () =>
      refusingUnstorableText(bodyAjv.compile(boundIntegers(closeObjects(schema)) as Schema)),
    );
  }
  return compileOnce(compiledTexts, schema as object, () =>
    refusingUnstorableText(textAjv.compile(boundIntegers(schema) as Schema)),
  );
};

/** The body validator routes use, for bodies that arrive another way (NDJSON files in the CLI). */
export function compileBodyValidator(
  schema: unknown,
): (value: unknown) => { ok: true } | { ok: false; details: ErrorDetail[] } {
  const validate = refusingUnstorableText(bodyAjv.compile(boundIntegers(closeObjects(schema)) as Schema));
  return (value) => (validate(value) ? { ok: true } : { ok: false, details: validationDetails(validate.errors ?? []) });
}
