import argon2 from 'argon2';

// OWASP: argon2id, m = 19 MiB, t = 2, p = 1.
const FULL = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const MINIMAL = { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/**
 * The full cost, except under the test runner when it asks for the minimal one (vitest.config.ts): every spec
 * file's world signs up and signs in a dozen adults, about two CPU-seconds per file at full cost. Both
 * conditions are needed, and production refuses to start without NODE_ENV=production. A hash records its own
 * parameters, so verification follows whichever cost made it.
 */
const costNow = () =>
  process.env.NODE_ENV === 'test' && process.env.QIRAA_PASSWORD_COST === 'minimal' ? MINIMAL : FULL;

export const hashPassword = (password: string) => argon2.hash(password, costNow());

// Verified when the email is unknown, so both failures cost one argon2 verification (a decoy per cost).
const decoys = new Map<object, Promise<string>>();

/** Constant work whether or not the account exists: an unknown email still verifies against a decoy hash. */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    const cost = costNow();
    let decoy = decoys.get(cost);
    if (!decoy) {
      decoy = argon2.hash('qiraa-decoy-password', cost);
      decoys.set(cost, decoy);
    }
    await argon2.verify(await decoy, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
