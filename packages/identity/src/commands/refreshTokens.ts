import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AnySql, Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';

/**
 * A family (one per login) lives at most this long, however often it is refreshed. Every `now` here is the
 * request's `deps.clock` reading, never the database's `now()`: whether a token is still valid is a domain
 * outcome, so a shifted or manual clock (QIRAA_CLOCK_SHIFT_DAYS) ages the family too.
 */
export const FAMILY_LIFETIME_DAYS = 30;

const hashOf = (token: string) => createHash('sha256').update(token).digest();
// 256 random bits, URL-safe.
const newToken = () => randomBytes(32).toString('base64url');

export async function startFamily(sql: AnySql, userId: number, now: Date): Promise<string> {
  const familyId = randomUUID();
  const token = newToken();
  await sql`
    insert into refresh_families (id, user_id, expires_at)
    values (${familyId}, ${userId}, ${now}::timestamptz + make_interval(days => ${FAMILY_LIFETIME_DAYS}))`;
  await sql`insert into refresh_tokens (token_hash, family_id) values (${hashOf(token)}, ${familyId})`;
  return token;
}

export type RotateResult =
  | { kind: 'rotated'; userId: number; refreshToken: string }
  /** A token that was already rotated came back: the family is revoked, its newest token too. */
  | { kind: 'reused' }
  | { kind: 'revoked' }
  | { kind: 'unknown' };

/**
 * Rotation is one compare-and-set (`status = 'active'` → `'rotated'`), so of N parallel refreshes of one
 * token exactly one wins; the others find it rotated, which is reuse.
 */
export async function rotateRefreshToken(sql: Sql, token: string, now: Date): Promise<RotateResult> {
  const hash = hashOf(token);
  return (await inTransaction(sql, async ({ sql: tx }) => {
    const [won] = await tx<{ family_id: string; user_id: bigint }[]>`
      update refresh_tokens t set status = 'rotated', rotated_at = ${now}
      from refresh_families f
      where t.token_hash = ${hash} and t.status = 'active' and f.id = t.family_id
        and f.revoked_at is null and f.expires_at > ${now}
      returning t.family_id, f.user_id`;
    if (won) {
      const next = newToken();
      await tx`insert into refresh_tokens (token_hash, family_id) values (${hashOf(next)}, ${won.family_id})`;
      return { kind: 'rotated', userId: Number(won.user_id), refreshToken: next };
    }
    const [seen] = await tx<{ family_id: string; status: string; revoked: boolean }[]>`
      select t.family_id, t.status, (f.revoked_at is not null or f.expires_at <= ${now}) as revoked
      from refresh_tokens t join refresh_families f on f.id = t.family_id
      where t.token_hash = ${hash}`;
    if (!seen) return { kind: 'unknown' };
    if (seen.revoked) return { kind: 'revoked' };
    await revokeFamily(tx, seen.family_id, 'reuse_detected', now);
    return { kind: 'reused' };
  })) as RotateResult;
}

export async function revokeFamily(
  sql: AnySql,
  familyId: string,
  why: 'logout' | 'reuse_detected',
  now: Date,
): Promise<void> {
  await sql`update refresh_families set revoked_at = ${now}, revoked_why = ${why} where id = ${familyId} and revoked_at is null`;
}

/** Logout: the family of this token ends; true when the token was known. */
export async function revokeFamilyOf(sql: AnySql, token: string, now: Date): Promise<boolean> {
  const [row] = await sql<
    { family_id: string }[]
  >`select family_id from refresh_tokens where token_hash = ${hashOf(token)}`;
  if (!row) return false;
  await revokeFamily(sql, row.family_id, 'logout', now);
  return true;
}
