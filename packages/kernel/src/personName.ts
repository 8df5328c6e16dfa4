import { Type } from 'typebox';

/**
 * The one rule for a person's name, shared by the roster (identity) and every notification payload that names
 * a child: letters and combining marks (Arabic vowel signs, shadda), separated by a single space, a hyphen or
 * an apostrophe («محمد-أمين», «O'Neil»), 1 to 120 characters. White space is normalised on write (trimmed,
 * every run one space), so a name typed with a double space is stored, and later rendered, with one.
 */
export const PERSON_NAME_MAX = 120;
const PERSON_NAME = /^[\p{L}\p{M}]+(?:[ '’-][\p{L}\p{M}]+)*$/u;
/** What a client may send: the rule, with any runs of white space that normalising turns into one space. */
const PERSON_NAME_INPUT = "^\\s*[\\p{L}\\p{M}]+(?:(?:\\s+|['’-])[\\p{L}\\p{M}]+)*\\s*$";

/** The stored form: NFC (one encoding of a vowel sign or hamza), trimmed, every run of white space one space. */
export function normalizePersonName(raw: string): string {
  return raw.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

export function isPersonName(name: string): boolean {
  return name.length >= 1 && name.length <= PERSON_NAME_MAX && PERSON_NAME.test(name);
}

/** The stored form (payloads: what the roster holds, already normalised). */
export const PersonName = Type.String({
  minLength: 1,
  maxLength: PERSON_NAME_MAX,
  pattern: PERSON_NAME.source,
  description: 'a person’s name: letters and marks separated by single spaces, hyphens or apostrophes',
});

/** A request field: the rule before normalisation (runs of white space allowed; the command normalises them). */
export const PersonNameInput = Type.String({
  minLength: 1,
  maxLength: PERSON_NAME_MAX,
  pattern: PERSON_NAME_INPUT,
  description:
    'a person’s name: letters and marks separated by spaces, hyphens or apostrophes; stored trimmed, one space',
});
