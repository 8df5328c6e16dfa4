import type { ErrorObject } from 'ajv';

const NUL = '\u0000';
export const NUL_ISSUE = 'must not contain a NUL character (U+0000)';
export const SURROGATE_ISSUE = 'must be well-formed Unicode (no lone surrogate)';

// A JSON pointer segment, escaped like ajv's instancePath; a NUL in a key is shown as the text `\u0000`.
const segment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll(NUL, '\\u0000');

// A high surrogate not followed by a low one, or a low one not after a high one (String#isWellFormed, ES2024).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const issueOf = (text: string) =>
  text.includes(NUL) ? NUL_ISSUE : LONE_SURROGATE.test(text) ? SURROGATE_ISSUE : undefined;

const error = (instancePath: string, message: string): ErrorObject => ({
  keyword: 'storableText',
  instancePath,
  schemaPath: '',
  params: {},
  message,
});

/**
 * Every string and object key PostgreSQL cannot store as sent, as ajv-style errors: U+0000, which `text` and
 * `jsonb` refuse (SQLSTATE 22021 / 22P05), and a lone UTF-16 surrogate, which `jsonb` refuses (22P02) and `text`
 * would silently turn into U+FFFD. Refused wherever it appears, whatever the schema says.
 */
export function unstorableTextErrors(value: unknown, path = ''): ErrorObject[] {
  if (typeof value === 'string') {
    const issue = issueOf(value);
    return issue ? [error(path, issue)] : [];
  }
  if (!value || typeof value !== 'object') return [];
  const errors: ErrorObject[] = [];
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}/${segment(key)}`;
    const issue = issueOf(key);
    if (issue) errors.push(error(at, issue));
    errors.push(...unstorableTextErrors(item, at));
  }
  return errors;
}
