import { customAlphabet } from 'nanoid';

const alphanumeric = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 14);

/** Opaque content ids: a prefix that says what the id names, then 14 random characters. */
export const newContentId = (prefix: 'bat' | 'psg' | 'itm' | 'frm' | 'scf' | 'wl' | 'ibk') =>
  `${prefix}_${alphanumeric()}`;
