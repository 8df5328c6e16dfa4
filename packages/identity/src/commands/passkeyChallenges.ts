import type { AnySql } from '@qiraa/db';
import { sha256 } from '../engine/passwordlessSecrets';

/** A ceremony must finish within five minutes of its options (also the `timeout` the browser is given). */
export const CHALLENGE_SECONDS = 300;

export type ChallengePurpose = 'registration' | 'authentication';

export async function storeChallenge(
  sql: AnySql,
  challenge: string,
  purpose: ChallengePurpose,
  userId: number | null,
  now: Date,
): Promise<void> {
  await sql`
    insert into auth_webauthn_challenges (challenge_hash, purpose, user_id, expires_at)
    values (${sha256(challenge)}, ${purpose}, ${userId}, ${new Date(now.getTime() + CHALLENGE_SECONDS * 1000)})`;
}

/**
 * Consumes the challenge once (compare-and-set), before any signature is checked: a failed ceremony burns
 * its challenge too, so an assertion can never be replayed against it. A registration challenge belongs to
 * the user who asked for it.
 */
export async function consumeChallenge(
  sql: AnySql,
  challenge: string,
  purpose: ChallengePurpose,
  userId: number | null,
  now: Date,
): Promise<boolean> {
  const rows = await sql`
    update auth_webauthn_challenges set consumed_at = ${now}
    where challenge_hash = ${sha256(challenge)} and purpose = ${purpose}
      and user_id is not distinct from ${userId} and consumed_at is null and expires_at > ${now}
    returning 1`;
  return rows.length === 1;
}

/** The challenge the client signed, read from clientDataJSON (base64url JSON); null when unreadable. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}
