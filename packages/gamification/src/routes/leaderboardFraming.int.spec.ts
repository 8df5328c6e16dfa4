import { client, useTestApp } from '@qiraa/app/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEADERBOARD_FRAMING } from '../queries/leaderboardFraming';

const t = useTestApp();
let root: ReturnType<typeof client>;
let classId: string;

beforeAll(async () => {
  const reg = await client(t.app).post('/api/auth/register', {
    email: 'root@framing.test',
    password: 'correct horse battery',
    fullNameAr: 'المشرف',
    primaryPersona: 'ADMIN',
  });
  root = client(t.app, reg.json().tokens.accessToken);
  const org = (
    await root.post('/api/organizations', { name: 'م', slug: 'framing', country: 'JO', defaultLocale: 'ar-JO' })
  ).json();
  const school = (await root.post('/api/schools', { organizationId: org.id, name: 'مدرسة', country: 'JO' })).json();
  classId = (
    await root.post('/api/classes', { schoolId: school.id, name: 'صف', grade: 2, academicYear: '2026-2027' })
  ).json().id;
});

describe('leaderboard framing and the language-safety filter', () => {
  it('answers 503 LANGUAGE_SAFETY_UNAVAILABLE while the rule set cannot be loaded', async () => {
    await t.db.sql`alter table language_safety_rules rename to language_safety_rules_away`;
    try {
      const res = await root.get(`/api/leaderboards/class/${classId}`);
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('LANGUAGE_SAFETY_UNAVAILABLE');
    } finally {
      await t.db.sql`alter table language_safety_rules_away rename to language_safety_rules`;
    }
  });

  it('shows the growth-language labels, which pass the general tier unchanged', async () => {
    for (const view of ['by_mastery_events', 'by_band_progression'] as const) {
      const res = await root.get(`/api/leaderboards/class/${classId}?view=${view}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().framing).toEqual(LEADERBOARD_FRAMING[view]);
    }
  });
});
