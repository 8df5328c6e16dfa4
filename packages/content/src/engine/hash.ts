import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal content always serializes the same way. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * sha256 of the canonical JSON of a piece of content. A re-imported row whose hash equals the newest stored
 * version is the same content (idempotent import); a different hash makes the next version.
 */
export const contentHash = (content: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(canonical(content)))
    .digest('hex');
