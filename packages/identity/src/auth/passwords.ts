import argon2 from 'argon2';

// OWASP: argon2id, m = 19 MiB, t = 2, p = 1.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

// Verified when the email is unknown, so both failures cost one argon2 verification.
let decoy: Promise<string> | undefined;

/** Constant work whether or not the account exists: an unknown email still verifies against a decoy hash. */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    decoy ??= hashPassword('qiraa-decoy-password');
    await argon2.verify(await decoy, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
