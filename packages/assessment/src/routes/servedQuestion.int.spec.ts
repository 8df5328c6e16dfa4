import { client, useTestWorld } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { normalizeArabic, reloadLanguageSafety } from '@qiraa/language-safety';
import { beforeAll, describe, expect, it } from 'vitest';
import { importDemoScreeningForms, openWindowFor } from '../testing/sittingFixtures';

/**
 * A diagnostic question passes the language-safety rule set in force when it is served (docs/language-safety.md,
 * "Served text"): a stricter version published after the form was imported reaches the child's screen.
 */
const { t, w } = useTestWorld();

beforeAll(async () => {
  await importDemoScreeningForms(t.db.sql);
  await openWindowFor(t.db.sql, w.a.id, '2026-2027');
}, 120_000);

describe('served diagnostic question', () => {
  it('is served in the newest rule set’s rewrite; the stored question is unchanged', async () => {
    const student = client(t.app, w.a.studentToken);
    const first = await student.post('/api/diagnostic-sessions/start');
    expect(first.statusCode, first.body).toBe(200);
    const itemId = first.json().item.id as string;
    const [stored] = await t.db.sql<{ stem_ar: string }[]>`select stem_ar from content_items where id = ${itemId}`;
    expect(first.json().item.stemAr).toBe(stored!.stem_ar);

    const word = normalizeArabic(stored!.stem_ar)
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
        values (${v}, 'LS-DEF-999', 'general', 'word', ${word}, 'كلمة', ${word}, 'the served stem''s word, refused now')`;
    });
    const expected = (await reloadLanguageSafety(t.runtime.deps.sql)).check(stored!.stem_ar, 'general');
    expect(expected.kind).toBe('rewrite');

    const resumed = await student.post('/api/diagnostic-sessions/start');
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ resumed: true, item: { id: itemId } });
    expect(resumed.json().item.stemAr).toBe(expected.kind === 'rewrite' ? expected.rewritten : null);
    const [still] = await t.db.sql<{ stem_ar: string }[]>`select stem_ar from content_items where id = ${itemId}`;
    expect(still!.stem_ar).toBe(stored!.stem_ar);
  });
});
