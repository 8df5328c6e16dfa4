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

/** No request of this API nests deeper; a deeper value is refused before anything walks it recursively. */
export const MAX_NESTING = 64;
export const NESTING_ISSUE = `must not nest deeper than ${MAX_NESTING} levels`;

/**
 * Every string and object key PostgreSQL cannot store as sent, as ajv-style errors: U+0000, which `text` and
 * `jsonb` refuse (SQLSTATE 22021 / 22P05), and a lone UTF-16 surrogate, which `jsonb` refuses (22P02) and `text`
 * would silently turn into U+FFFD. Refused wherever it appears, whatever the schema says. The walk is iterative
 * and stops at MAX_NESTING levels, so a body of ten thousand nested arrays is a 422, not a stack overflow.
 */
export function unstorableTextErrors(value: unknown, path = ''): ErrorObject[] {
  const errors: ErrorObject[] = [];
  const pending: [unknown, string, number][] = [[value, path, 0]];
  while (pending.length > 0) {
    const [item, at, depth] = pending.pop()!;
    if (typeof item === 'string') {
      const issue = issueOf(item);
      if (issue) errors.push(error(at, issue));
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    if (depth >= MAX_NESTING) {
      errors.push(error(at, NESTING_ISSUE));
      continue;
    }
    const entries = Object.entries(item);
    for (const [key] of entries) {
      const issue = issueOf(key);
      if (issue) errors.push(error(`${at}/${segment(key)}`, issue));
    }
    // Pushed last to first, so values are reported in document order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      pending.push([child, `${at}/${segment(key)}`, depth + 1]);
    }
  }
  return errors;
}
