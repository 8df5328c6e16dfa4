import { customAlphabet } from 'nanoid';

const alphanumeric = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 14);

/** Opaque ids: sbb_ a blueprint import batch, sbp_ a blueprint version, ses_ a session, sst_ a student's slot. */
export const newSessionsId = (prefix: 'sbb' | 'sbp' | 'ses' | 'sst') => `${prefix}_${alphanumeric()}`;
