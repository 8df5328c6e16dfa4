import { client, useTestWorld } from '@qiraa/app/testing';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { describe, expect, it } from 'vitest';
import { CURRENT_RULE_SET } from '../rules';

const { t, w } = useTestWorld();
let serial = 0;

async function studentWithBadges(gender?: 'female' | 'male'): Promise<number> {
  const res = await client(t.app, w.a.adminToken).post(`/api/classes/${w.a.classId}/students`, {
    fullNameAr: 'طفل',
    ...(gender ? { gender } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  const studentId: number = res.json().studentId;
  // Three sub-skill steps: first_step on the first, sound_explorer on the third.
  for (let i = 0; i < 3; i++) {
    const event = await client(t.app, w.a.adminToken).post('/api/gamification/mastery-events', {
      kind: 'mastery_event',
      engineEventId: `gender-${process.pid}-${serial++}`,
      studentId,
      sourceKind: 'subskill_state_up',
      occurredAt: '2026-11-02T08:00:00Z',
      sessionId: `gender-${i}`,
    });
    expect(event.statusCode, event.body).toBe(201);
  }
  return studentId;
}

const badgesSeenBy = async (token: string, studentId: number) =>
  (await client(t.app, token).get(`/api/students/${studentId}/gamification/profile`)).json().badges as {
    code: string;
    nameAr: string;
    descriptionAr: string;
  }[];

describe('badge texts agree with the child', () => {
  it('every badge name and description, in all three forms, passes both language-safety tiers', async () => {
    const filter = await loadLanguageSafety(t.db.sql);
    for (const badge of CURRENT_RULE_SET.badges) {
      for (const form of ['male', 'female', 'neutral'] as const) {
        for (const text of [badge.nameAr[form], badge.descriptionAr[form]]) {
          expect(text).not.toMatch(/\//);
          expect(filter.check(text, 'general'), `${badge.code} ${form}: ${text}`).toEqual({ kind: 'pass' });
          expect(filter.check(text, 'parent'), `${badge.code} ${form}: ${text}`).toEqual({ kind: 'pass' });
        }
      }
    }
  });

  it('a girl sees (and her teacher reads) the feminine forms; a boy the masculine; unknown the neutral', async () => {
    const girl = await studentWithBadges('female');
    const boy = await studentWithBadges('male');
    const unknown = await studentWithBadges();
    const texts = (badges: { code: string; nameAr: string; descriptionAr: string }[]) =>
      badges.map((b) => [b.code, b.nameAr, b.descriptionAr]);

    expect(texts(await badgesSeenBy(w.a.teacherToken, girl))).toEqual([
      ['first_step', 'الخطوة الأولى', 'بدأتِ رحلتكِ في القراءة بخطوة جميلة.'],
      ['sound_explorer', 'مستكشفة الأصوات', 'تقدّمتِ في ثلاث مهارات فرعية.'],
    ]);
    expect(texts(await badgesSeenBy(w.a.teacherToken, boy))).toEqual([
      ['first_step', 'الخطوة الأولى', 'بدأتَ رحلتكَ في القراءة بخطوة جميلة.'],
      ['sound_explorer', 'مستكشف الأصوات', 'تقدّمتَ في ثلاث مهارات فرعية.'],
    ]);
    expect(texts(await badgesSeenBy(w.a.teacherToken, unknown))).toEqual([
      ['first_step', 'الخطوة الأولى', 'رحلتك في القراءة بدأت بخطوة جميلة.'],
      ['sound_explorer', 'استكشاف الأصوات', 'ثلاث من مهاراتك الفرعية في تقدّم.'],
    ]);
  });
});
