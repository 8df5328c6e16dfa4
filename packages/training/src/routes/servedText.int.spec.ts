import { client, useTestWorld } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { loadLanguageSafety, normalizeArabic, reloadLanguageSafety } from '@qiraa/language-safety';
import { beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_EXPLANATION_AR, GENERIC_HINT_AR } from '../queries/answerFeedback';
import { importTrainingPack } from '../testing';

/**
 * Student text passes the language-safety rule set in force when served (docs/language-safety.md, "Served
 * text"): a stricter version published after an item was stored reaches the child without re-importing anything.
 */
const { t, w } = useTestWorld();

beforeAll(async () => {
  await importTrainingPack(t.db.sql);
}, 120_000);

describe('served text', () => {
  it('the hard-coded feedback strings pass the rule set in force, in the student tier', async () => {
    const filter = await loadLanguageSafety(t.runtime.deps.sql);
    for (const text of [GENERIC_HINT_AR, GENERIC_EXPLANATION_AR]) {
      expect(filter.check(text, 'general'), text).toEqual({ kind: 'pass' });
    }
  });

  it('a rule set published after the item was stored reaches the served item; the stored item is unchanged', async () => {
    const student = client(t.app, w.a.studentToken);
    const first = await student.get('/api/practice/queues/current/next-item');
    expect(first.statusCode, first.body).toBe(200);
    const served = first.json().served.item as { id: string; stemAr: string };
    const [stored] = await t.db.sql<{ stem_ar: string }[]>`select stem_ar from content_items where id = ${served.id}`;
    expect(served.stemAr).toBe(stored!.stem_ar);

    // Version n+1 repeats every rule and adds one on the stem's longest word (forward-only, like a migration).
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
    const stricter = await reloadLanguageSafety(t.runtime.deps.sql);
    const expected = stricter.check(stored!.stem_ar, 'general');
    expect(expected.kind).toBe('rewrite');

    const again = await student.get('/api/practice/queues/current/next-item');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().served.item.id).toBe(served.id);
    expect(again.json().served.item.stemAr).toBe(expected.kind === 'rewrite' ? expected.rewritten : null);
    const [still] = await t.db.sql<{ stem_ar: string }[]>`select stem_ar from content_items where id = ${served.id}`;
    expect(still!.stem_ar).toBe(stored!.stem_ar);
  });
});
