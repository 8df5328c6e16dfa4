import type { AnySql } from '@qiraa/db';

export interface StoredVersion {
  id: string;
  version: number;
  status: string;
  contentHash: string;
}

/** The versions of one external id in one scope that an import compares against. */
export interface StoredVersions {
  /** The newest version that is not declined (a declined version never counts as "the same content"). */
  newest: StoredVersion | null;
  /** The highest version number, declined included: the next version is this + 1. */
  maxVersion: number;
}

export type VersionedTable =
  | 'content_items'
  | 'content_passages'
  | 'content_scaffold_prompts'
  | 'content_screening_forms';

interface Row {
  external_id: string;
  id: string;
  version: number;
  status: string;
  content_hash: string;
}

function fold(rows: readonly Row[], keyOf: (r: Row) => string): Map<string, StoredVersions> {
  const out = new Map<string, StoredVersions>();
  // rows arrive newest version first per key
  for (const r of rows) {
    const key = keyOf(r);
    const entry = out.get(key) ?? { newest: null, maxVersion: r.version };
    if (!entry.newest && r.status !== 'declined') {
      entry.newest = { id: r.id, version: r.version, status: r.status, contentHash: r.content_hash };
    }
    out.set(key, entry);
  }
  return out;
}

/** Stored versions of these external ids in exactly this scope (null = global). */
export async function storedVersions(
  tx: AnySql,
  table: VersionedTable,
  organizationId: string | null,
  externalIds: readonly string[],
): Promise<Map<string, StoredVersions>> {
  if (externalIds.length === 0) return new Map();
  const rows = await tx<Row[]>`
    select external_id, id, version, status, content_hash from ${tx(table)}
    where organization_id is not distinct from ${organizationId} and external_id = any(${[...externalIds]})
    order by external_id, version desc`;
  return fold(rows, (r) => r.external_id);
}

/** Word-list versions share (organization, school, external id); the map key is `school|externalId`. */
export const wordListKey = (schoolId: string | null, externalId: string) => `${schoolId ?? ''}|${externalId}`;

export async function storedWordListVersions(
  tx: AnySql,
  organizationId: string | null,
  externalIds: readonly string[],
): Promise<Map<string, StoredVersions>> {
  if (externalIds.length === 0) return new Map();
  const rows = await tx<(Row & { school_id: string | null })[]>`
    select external_id, school_id, id, version, status, content_hash from content_word_lists
    where organization_id is not distinct from ${organizationId} and external_id = any(${[...externalIds]})
    order by school_id nulls first, external_id, version desc`;
  return fold(rows, (r) => wordListKey((r as Row & { school_id: string | null }).school_id, r.external_id));
}

export type VersionDecision =
  | { kind: 'unchanged'; id: string }
  | { kind: 'pending_version_exists' }
  | { kind: 'new'; version: number };

const PENDING = new Set(['pending_review', 'draft']);

/**
 * Equal to the newest version: unchanged (nothing stored). Otherwise a new version, unless the newest is
 * still waiting for review: one pending version per external id, so approvals never race each other.
 */
export function decideVersion(stored: StoredVersions | undefined, hash: string): VersionDecision {
  const newest = stored?.newest ?? null;
  if (newest && newest.contentHash === hash) return { kind: 'unchanged', id: newest.id };
  if (newest && PENDING.has(newest.status)) return { kind: 'pending_version_exists' };
  return { kind: 'new', version: (stored?.maxVersion ?? 0) + 1 };
}
