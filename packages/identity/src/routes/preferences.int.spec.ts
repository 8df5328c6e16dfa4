import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../queries/getPreferences';

const { t, w } = useTestWorld();
const as = (token: string): Client => client(t.app, token);
const URL = '/api/users/me/preferences';

const storedOf = async (token: string) => {
  const me = (await as(token).get('/api/auth/me')).json() as { id: number };
  const [row] = await t.db.sql<{ preferences: Record<string, unknown> }[]>`
    select preferences from users where id = ${me.id}`;
  return row!.preferences;
};

describe('GET /api/users/me/preferences', () => {
  it('answers a user who never saved one with the defaults', async () => {
    const res = await as(w.a.managerToken).get(URL);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      contrast: 'normal',
      readingFont: 'default',
      fontScale: 1,
      reducedMotion: false,
      audioPrompts: true,
    });
  });

  it('needs a bearer token (401 TOKEN_MISSING)', async () => {
    const res = await client(t.app).get(URL);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_MISSING');
  });

  it('never returns the removed passkeyPromptSuppressed, even when an old row still stores it', async () => {
    const me = (await as(w.b.managerToken).get('/api/auth/me')).json() as { id: number };
    await t.db.sql`update users set preferences = ${t.db.sql.json({ passkeyPromptSuppressed: true, contrast: 'high' })}
                   where id = ${me.id}`;
    const res = await as(w.b.managerToken).get(URL);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...DEFAULT_PREFERENCES, contrast: 'high' });
  });
});

describe('PATCH /api/users/me/preferences', () => {
  it('changes only the keys it is given and answers the whole set', async () => {
    const teacher = as(w.a.teacherToken);
    expect((await teacher.patch(URL, { contrast: 'high' })).statusCode).toBe(200);
    const res = await teacher.patch(URL, { fontScale: 1.5, readingFont: 'dyslexia_friendly' });
    expect(res.statusCode).toBe(200);
    const expected = { ...DEFAULT_PREFERENCES, contrast: 'high', fontScale: 1.5, readingFont: 'dyslexia_friendly' };
    expect(res.json()).toEqual(expected);
    expect((await teacher.get(URL)).json()).toEqual(expected);
  });

  it("changes the caller's preferences only, never another user's", async () => {
    await as(w.a.otherTeacherToken).patch(URL, { reducedMotion: true, audioPrompts: false });
    expect((await as(w.a.parentToken).get(URL)).json()).toEqual(DEFAULT_PREFERENCES);
  });

  it('refuses the removed key passkeyPromptSuppressed with 400 UNKNOWN_FIELD and stores nothing', async () => {
    const res = await as(w.a.principalToken).patch(URL, { contrast: 'high', passkeyPromptSuppressed: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'UNKNOWN_FIELD',
      details: [{ field: 'passkeyPromptSuppressed', issue: 'is not allowed' }],
    });
    expect(await storedOf(w.a.principalToken)).toEqual({});
  });

  it('refuses any other undeclared key with 400 UNKNOWN_FIELD', async () => {
    const res = await as(w.a.principalToken).patch(URL, { theme: 'dark' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('UNKNOWN_FIELD');
    expect(res.json().details).toEqual([{ field: 'theme', issue: 'is not allowed' }]);
  });

  it('refuses wrong types and values with 422 VALIDATION_ERROR naming each field', async () => {
    const res = await as(w.a.principalToken).patch(URL, {
      contrast: 'dark',
      readingFont: 'comic',
      fontScale: '1.2',
      reducedMotion: 'yes',
      audioPrompts: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    const fields = (res.json().details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['audioPrompts', 'contrast', 'fontScale', 'readingFont', 'reducedMotion']);
  });

  it('keeps fontScale within 0.8 to 2.0 (bounds included)', async () => {
    const principal = as(w.a.principalToken);
    for (const fontScale of [0.79, 2.01]) {
      expect((await principal.patch(URL, { fontScale })).statusCode, String(fontScale)).toBe(422);
    }
    for (const fontScale of [0.8, 2]) {
      const res = await principal.patch(URL, { fontScale });
      expect(res.statusCode, String(fontScale)).toBe(200);
      expect(res.json().fontScale).toBe(fontScale);
    }
  });

  it('refuses an empty change with 422', async () => {
    const res = await as(w.a.principalToken).patch(URL, {});
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });

  it('drops a stored removed key the next time the user saves', async () => {
    const me = (await as(w.b.parentToken).get('/api/auth/me')).json() as { id: number };
    await t.db.sql`update users set preferences = ${t.db.sql.json({ passkeyPromptSuppressed: true })}
                   where id = ${me.id}`;
    expect((await as(w.b.parentToken).patch(URL, { audioPrompts: false })).statusCode).toBe(200);
    expect(await storedOf(w.b.parentToken)).toEqual({ audioPrompts: false });
  });

  it('is open to students too (any authenticated user)', async () => {
    expect(w.a.studentToken, 'buildWorld could not sign the student in').not.toBe('');
    const student = as(w.a.studentToken);
    expect((await student.patch(URL, { audioPrompts: false, contrast: 'high' })).statusCode).toBe(200);
    expect((await student.get(URL)).json()).toEqual({ ...DEFAULT_PREFERENCES, audioPrompts: false, contrast: 'high' });
  });
});
