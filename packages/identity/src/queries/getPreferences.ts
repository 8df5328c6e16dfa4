import type { AnySql } from '@qiraa/db';
import { notFound } from '@qiraa/http-kit';
import { type Static, Type } from 'typebox';

// A closed enum (one "must be equal to one of the allowed values" per bad field, not one per literal).
const oneOf = <const T extends string>(...values: T[]) => Type.Unsafe<T>(Type.String({ enum: values }));

/** The accessibility and presentation preferences of one user (spec: UserPreferencesResponse). */
export const UserPreferences = Type.Object({
  contrast: oneOf('normal', 'high'),
  readingFont: oneOf('default', 'dyslexia_friendly'),
  fontScale: Type.Number({ minimum: 0.8, maximum: 2, description: 'text size factor, 0.8 to 2.0' }),
  reducedMotion: Type.Boolean(),
  audioPrompts: Type.Boolean(),
});
export type UserPreferences = Static<typeof UserPreferences>;

/** What a user who never saved a preference gets. */
export const DEFAULT_PREFERENCES: UserPreferences = {
  contrast: 'normal',
  readingFont: 'default',
  fontScale: 1,
  reducedMotion: false,
  audioPrompts: true,
};

const KEYS = Object.keys(DEFAULT_PREFERENCES) as (keyof UserPreferences)[];

/** Stored keys over the defaults; keys no longer in the shape (e.g. `passkeyPromptSuppressed`) are dropped. */
export function withDefaults(stored: Record<string, unknown> | null | undefined): UserPreferences {
  const out: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  for (const key of KEYS) {
    if (stored && stored[key] !== undefined && stored[key] !== null) out[key] = stored[key];
  }
  return out as UserPreferences;
}

export async function getPreferences(sql: AnySql, userId: number): Promise<UserPreferences> {
  const [row] = await sql<{ preferences: Record<string, unknown> }[]>`
    select preferences from users where id = ${userId}`;
  if (!row) throw notFound('user');
  return withDefaults(row.preferences);
}
