import { client, useTestWorld } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { inGender, studentGender } from '@qiraa/identity';
import { normalizeArabic, reloadLanguageSafety } from '@qiraa/language-safety';
import { beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_RULE_SET } from '../rules';

/**
 * Issue 24, item 7: the badge texts a child (and the child's teacher and parent) read pass the language-safety
 * rule set in force when served (docs/language-safety.md, "Served text"), not only the test that checked them
 * when they were written: a stricter version reaches a badge awarded before it, and nothing stored changes.
 */
const { t, w } = useTestWorld();

type Badge = { code?: string; nameAr: string; descriptionAr: string };

beforeAll(async () => {
  // Three sub-skill steps: first_step on the first, sound_explorer on the third.
  for (let i = 0; i < 3; i++) {
    const res = await client(t.app, w.a.adminToken).post('/api/gamification/mastery-events', {
      kind: 'mastery_event',
      engineEventId: `served-badge-${process.pid}-${i}`,
      studentId: w.a.studentId,
      sourceKind: 'subskill_state_up',
      occurredAt: '2026-11-02T08:00:00Z',
      sessionId: `served-badge-${i}`,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
}, 60_000);

const profileAs = async (token: string) => {
  const res = await client(t.app, token).get(`/api/students/${w.a.studentId}/gamification/profile`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { badges: Badge[]; journeyAr?: string; streakAr?: string; xpBalance?: number };
};
const texts = (badges: Badge[]) => badges.map((b) => [b.nameAr, b.descriptionAr]);
const storedAwards = () =>
  t.db.sql`select id, code, rule_version, awarded_at from gam_badge_awards where student_id = ${w.a.studentId}
           order by id`;

describe('badge texts as served', () => {
  it('under the rule set in force, every reader gets the rule set’s texts unchanged', async () => {
    const gender = await studentGender(t.db.sql, w.a.studentId);
    const ours = ['first_step', 'sound_explorer'].map((code) => {
      const rule = CURRENT_RULE_SET.badges.find((b) => b.code === code)!;
      return [inGender(rule.nameAr, gender), inGender(rule.descriptionAr, gender)];
    });
    expect(texts((await profileAs(w.a.studentToken)).badges)).toEqual(ours);
    expect(texts((await profileAs(w.a.teacherToken)).badges)).toEqual(ours);
    expect(texts((await profileAs(w.a.parentToken)).badges)).toEqual(ours);
  });

  it('answers 503 LANGUAGE_SAFETY_UNAVAILABLE to every reader while the rule set cannot be loaded', async () => {
    const sql = t.runtime.deps.sql;
    await t.db.sql`alter table language_safety_rules rename to language_safety_rules_away`;
    try {
      // A failed read drops the cached rule set, so the routes read it again.
      await expect(reloadLanguageSafety(sql)).rejects.toThrow();
      for (const token of [w.a.studentToken, w.a.teacherToken, w.a.parentToken]) {
        const res = await client(t.app, token).get(`/api/students/${w.a.studentId}/gamification/profile`);
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json().code).toBe('LANGUAGE_SAFETY_UNAVAILABLE');
      }
    } finally {
      await t.db.sql`alter table language_safety_rules_away rename to language_safety_rules`;
      await reloadLanguageSafety(sql);
    }
  });

  it('a rule set published after the award reaches the served badge name; the stored award is unchanged', async () => {
    const before = await storedAwards();
    const own = await profileAs(w.a.studentToken);
    const name = own.badges[0]!.nameAr;

    // Version n+1 repeats every rule and adds one on the first badge name's longest word (forward-only).
    const word = normalizeArabic(name)
      .split(/[^\p{L}]+/u)
      .reduce((a, b) => (b.length > a.length ? b : a), '');
    expect(word.length).toBeGreaterThan(2);
    await inTransaction(t.db.sql, async ({ sql: tx }) => {
      const [{ v }] = (await tx`select max(version) + 1 as v from language_safety_rule_sets`) as unknown as [
        { v: number },
      ];
      await tx`insert into language_safety_rule_sets (version, description) values (${v}, 'stricter: test')`;
      await tx`
        insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, match_regex,
                                           case_sensitive, replacement, example, gloss)
        select ${v}, rule_id, tier, kind, match_text, match_regex, case_sensitive, replacement, example, gloss
        from language_safety_rules where rule_set_version = ${v} - 1`;
      await tx`
        insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, replacement, example, gloss)
        values (${v}, 'LS-DEF-999', 'general', 'word', ${word}, 'كلمة', ${word}, 'a served badge name''s word, refused now')`;
    });
    const stricter = await reloadLanguageSafety(t.runtime.deps.sql);
    const as = (tier: 'general' | 'parent') => (text: string) => {
      const result = stricter.check(text, tier);
      return result.kind === 'pass' ? text : result.rewritten;
    };
    expect(stricter.check(name, 'general').kind).toBe('rewrite');
    const rewritten = (badges: Badge[], tier: 'general' | 'parent') =>
      badges.map((b) => [as(tier)(b.nameAr), as(tier)(b.descriptionAr)]);

    const child = await profileAs(w.a.studentToken);
    expect(child.badges[0]!.nameAr).not.toBe(name);
    expect(texts(child.badges)).toEqual(rewritten(own.badges, 'general'));
    expect(child.badges.map((b) => b.code)).toEqual(own.badges.map((b) => b.code));
    expect(texts((await profileAs(w.a.teacherToken)).badges)).toEqual(rewritten(own.badges, 'general'));
    const parent = await profileAs(w.a.parentToken);
    expect(parent.badges[0]!.nameAr).not.toBe(name);
    expect(texts(parent.badges)).toEqual(rewritten(own.badges, 'parent'));

    // Nothing stored changed: the awards, and the rule set's own texts, which the profile still derives from.
    expect(await storedAwards()).toEqual(before);
    const rule = CURRENT_RULE_SET.badges.find((b) => b.code === own.badges[0]!.code)!;
    expect(inGender(rule.nameAr, await studentGender(t.db.sql, w.a.studentId))).toBe(name);
  });
});
