import type { Sql } from '@qiraa/db';
import { type LanguageSafetyFilter, loadLanguageSafety } from '@qiraa/language-safety';
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { parentSafe } from '../schemas/allowList';

/**
 * The parent tier, loaded first on every portal route: an unavailable rule set throws
 * `LanguageSafetyUnavailableError`, which the error mapper answers 503 before anything is read.
 */
export const parentFilter = (sql: Sql): Promise<LanguageSafetyFilter> => loadLanguageSafety(sql);

/** A response through its allow-list and the parent tier; a rewrite is logged (rule ids, the field path). */
export function parentAnswer<T>(request: FastifyRequest, filter: LanguageSafetyFilter, schema: TSchema, value: T): T {
  const safe = parentSafe(schema, value, filter);
  if (safe.rewritten.length > 0) {
    request.log.warn(
      { rewritten: safe.rewritten, ruleSetVersion: filter.version },
      'parent portal: the language filter rewrote a label (a template or catalog text to revise)',
    );
  }
  return safe.value;
}
