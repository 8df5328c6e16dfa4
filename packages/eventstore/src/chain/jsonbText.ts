/**
 * The text PostgreSQL prints for a jsonb value (`value::jsonb::text`), computed in the application so the
 * append sends a 32-byte content hash instead of making the database serialise and hash each event
 * (migration 0044). jsonb's text is canonical: object keys sorted by byte length, then bytewise (UTF-8);
 * `": "` and `", "` separators; numbers as `numeric` prints them (plain decimals, never an exponent).
 * The value must be what JSON.parse gives back (call it on `JSON.parse(JSON.stringify(x))`).
 */
export function jsonbText(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return numericText(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .map(([key, v]) => [Buffer.from(key, 'utf8'), key, v] as const)
        .sort(([a], [b]) => a.length - b.length || Buffer.compare(a, b));
      return `{${entries.map(([, key, v]) => `${JSON.stringify(key)}: ${jsonbText(v)}`).join(', ')}}`;
    }
    default:
      throw new TypeError(`not a JSON value: ${typeof value}`);
  }
}

/** JavaScript's shortest number text, with an exponent spelled out as `numeric` prints it. */
export function numericText(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError('JSON has no Infinity or NaN');
  const text = JSON.stringify(n);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = '', exp] = match;
  const digits = whole! + fraction;
  const point = whole!.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
