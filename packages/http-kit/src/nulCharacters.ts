import type { ErrorObject } from 'ajv';

const NUL = '\u0000';
export const NUL_ISSUE = 'must not contain a NUL character (U+0000)';

// A JSON pointer segment, escaped like ajv's instancePath; a NUL in a key is shown as the text `\u0000`.
const segment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll(NUL, '\\u0000');

/**
 * Every string (and object key) holding U+0000, as ajv-style errors. PostgreSQL `text` and `jsonb` cannot hold
 * it (SQLSTATE 22021 / 22P05), so it is refused wherever it appears, whatever the schema says.
 */
export function nulCharacterErrors(value: unknown, path = ''): ErrorObject[] {
  if (typeof value === 'string') {
    return value.includes(NUL)
      ? [{ keyword: 'nul', instancePath: path, schemaPath: '', params: {}, message: NUL_ISSUE }]
      : [];
  }
  if (!value || typeof value !== 'object') return [];
  const errors: ErrorObject[] = [];
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}/${segment(key)}`;
    if (key.includes(NUL))
      errors.push({ keyword: 'nul', instancePath: at, schemaPath: '', params: {}, message: NUL_ISSUE });
    errors.push(...nulCharacterErrors(item, at));
  }
  return errors;
}
