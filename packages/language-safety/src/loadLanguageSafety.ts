import type { AnySql } from '@qiraa/db';
import { createLanguageSafetyFilter, type LanguageSafetyFilter } from './createLanguageSafetyFilter';
import { LanguageSafetyUnavailableError } from './errors';
import { isLanguageSafetyTier, LANGUAGE_SAFETY_RULE_KINDS, type LanguageSafetyRule } from './rules';

/** How long a loaded rule set is reused before the database is read again. */
export const LANGUAGE_SAFETY_CACHE_TTL_MS = 60_000;

export interface LoadLanguageSafetyOptions {
  /** Reuse a rule set loaded less than this long ago (default `LANGUAGE_SAFETY_CACHE_TTL_MS`); 0 always reads. */
  maxAgeMs?: number;
}

interface CacheEntry {
  readonly loadedAt: number;
  readonly filter: Promise<LanguageSafetyFilter>;
}

// One entry per connection pool, so two databases in one process (tests) never share a rule set.
const cache = new WeakMap<object, CacheEntry>();

interface RuleRow {
  version: number | null;
  rule_id: string | null;
  tier: string;
  kind: string;
  match_text: string | null;
  match_regex: string | null;
  case_sensitive: boolean;
  replacement: string | null;
  example: string;
  gloss: string;
}

/**
 * The language-safety filter of the highest rule-set version in the database. Cached per process and pool for
 * a short time; concurrent callers share one read. Fails closed: when the rule set cannot be read (tables
 * missing, no version, an empty or invalid version, database down) it throws `LanguageSafetyUnavailableError`,
 * also when an earlier read had succeeded, and the next call tries again.
 * Pass the pool, not a transaction: the cache is keyed on the object given.
 */
export function loadLanguageSafety(
  sql: AnySql,
  options: LoadLanguageSafetyOptions = {},
): Promise<LanguageSafetyFilter> {
  const maxAgeMs = options.maxAgeMs ?? LANGUAGE_SAFETY_CACHE_TTL_MS;
  const now = Date.now();
  const cached = cache.get(sql);
  if (cached && now - cached.loadedAt < maxAgeMs) return cached.filter;
  const entry: CacheEntry = { loadedAt: now, filter: readRuleSet(sql) };
  cache.set(sql, entry);
  entry.filter.catch(() => {
    if (cache.get(sql) === entry) cache.delete(sql);
  });
  return entry.filter;
}

/** Reads the rule set now, whatever the cache holds (after publishing a version, or in tests). */
export function reloadLanguageSafety(sql: AnySql): Promise<LanguageSafetyFilter> {
  return loadLanguageSafety(sql, { maxAgeMs: 0 });
}

async function readRuleSet(sql: AnySql): Promise<LanguageSafetyFilter> {
  let rows: RuleRow[];
  try {
    rows = await sql<RuleRow[]>`
      with head as (select max(version) as version from language_safety_rule_sets)
      select head.version, r.rule_id, r.tier, r.kind, r.match_text, r.match_regex, r.case_sensitive,
             r.replacement, r.example, r.gloss
      from head left join language_safety_rules r on r.rule_set_version = head.version
      order by r.rule_id`;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === '42P01' || code === '42703') {
      throw new LanguageSafetyUnavailableError('rule_tables_missing', 'language-safety rule tables are missing', {
        cause: error,
      });
    }
    throw new LanguageSafetyUnavailableError(
      'database_error',
      `language-safety rule set cannot be read: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const version = rows[0]?.version ?? null;
  if (version === null) {
    throw new LanguageSafetyUnavailableError('no_rule_set', 'no language-safety rule set is published');
  }
  const rules: LanguageSafetyRule[] = [];
  for (const row of rows) {
    if (row.rule_id === null) continue;
    if (!isLanguageSafetyTier(row.tier) || !(LANGUAGE_SAFETY_RULE_KINDS as readonly string[]).includes(row.kind)) {
      throw new LanguageSafetyUnavailableError(
        'rule_invalid',
        `language-safety rule ${row.rule_id} has an unknown tier or kind`,
      );
    }
    rules.push({
      ruleId: row.rule_id,
      tier: row.tier,
      kind: row.kind as LanguageSafetyRule['kind'],
      matchText: row.match_text,
      matchRegex: row.match_regex,
      caseSensitive: row.case_sensitive,
      replacement: row.replacement,
      example: row.example,
      gloss: row.gloss,
    });
  }
  // An empty version is unavailable too (createLanguageSafetyFilter refuses it).
  return createLanguageSafetyFilter(version, rules);
}
