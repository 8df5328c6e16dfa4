import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { type UserPreferences, withDefaults } from '../queries/getPreferences';

/** Keys that once existed; a stored value of theirs is removed on the next write. */
const REMOVED_KEYS = ['passkeyPromptSuppressed'];

/**
 * PATCH semantics: the given keys replace the stored ones, the others stay. One statement, so two
 * concurrent patches of different keys both land.
 */
export async function updatePreferences(
  sql: AnySql,
  userId: number,
  patch: Partial<UserPreferences>,
): Promise<UserPreferences> {
  const [row] = await sql<{ preferences: Record<string, unknown> }[]>`
    update users set preferences = (preferences - ${REMOVED_KEYS}::text[]) || ${sql.json(patch)}
    where id = ${userId}
    returning preferences`;
  if (!row) throw notFound('user');
  return withDefaults(row.preferences);
}
