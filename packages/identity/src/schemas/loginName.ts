import { Type } from 'typebox';

/**
 * A child's home-login name: eight digits, the first not 0 (docs/identity.md, "Home login"). Digits because a
 * parent types them on any phone keypad, Arabic or Latin, without switching keyboards or meeting Arabic's
 * look-alike letters (أ/ا/إ, ى/ي, ة/ه); the first digit is never 0 so a spreadsheet keeps all eight.
 */
export const LOGIN_NAME_PATTERN = /^[1-9][0-9]{7}$/;

/** What a parent may type: digits of any of the three forms, with spaces or hyphens between groups. */
export const LoginNameInput = Type.String({
  minLength: 8,
  maxLength: 24,
  pattern: '^[\\s\\-0-9\\u0660-\\u0669\\u06F0-\\u06F9]+$',
  description:
    'the child’s loginName from the login card: eight digits; Arabic-Indic (٠-٩) and Persian (۰-۹) digits, ' +
    'spaces and hyphens are accepted',
});

export const LoginName = Type.String({
  pattern: '^[1-9][0-9]{7}$',
  description: 'eight digits, unique across the service: the child’s home-login name, printed on the login card',
});

/** The typed name as stored: Arabic-Indic and Persian digits made ASCII, spaces and hyphens dropped. */
export function normalizeLoginName(typed: string): string {
  return typed
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\s-]/g, '');
}
