import { createHash, randomBytes } from 'node:crypto';

/** Single-use secrets are stored as their SHA-256 only: a database read alone signs no one in. */
export const sha256 = (secret: string) => createHash('sha256').update(secret).digest();

/** Crockford base32: no I, L, O, U, so a code read off a screen and typed on a tablet survives. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const HANDOFF_CODE_LENGTH = 10;

/** 10 symbols × 5 bits = 50 random bits (256 is a multiple of 32, so `byte & 31` is unbiased). */
export function newHandoffCode(): string {
  return [...randomBytes(HANDOFF_CODE_LENGTH)].map((byte) => CROCKFORD[byte & 31]).join('');
}

/** What a person typed back into the canonical form: upper case, the look-alikes O→0 and I/L→1. */
export function canonicalHandoffCode(typed: string): string {
  return typed.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
}
