import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from './apiError';

/** '/children/0/name' → 'children.0.name' */
const dotted = (pointer: string) => pointer.replace(/^\//, '').split('/').join('.');

const join = (base: string, key: string) => (base ? `${base}.${key}` : key);

/** One detail per failing field, naming the field the way a client sent it. */
export function validationDetails(errors: readonly Partial<ErrorObject>[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const base = dotted(error.instancePath ?? '');
    const params = (error.params ?? {}) as Record<string, unknown>;
    let detail: ErrorDetail;
    if (error.keyword === 'required') {
      detail = { field: join(base, String(params.missingProperty)), issue: 'is required' };
    } else if (error.keyword === 'discriminator') {
      // A union keyed on a tag (e.g. primaryPersona): the tag itself is what is wrong or missing.
      const issue = params.error === 'tag' ? 'is required' : 'is not one of the allowed values';
      detail = { field: join(base, String(params.tag)), issue };
    } else if (error.keyword === 'additionalProperties') {
      detail = { field: join(base, String(params.additionalProperty)), issue: 'is not allowed' };
    } else {
      detail = { field: base || '(body)', issue: error.message ?? 'is invalid' };
    }
    const key = `${detail.field}\u0000${detail.issue}`;
    if (!seen.has(key)) details.push(detail);
    seen.add(key);
  }
  return details;
}
