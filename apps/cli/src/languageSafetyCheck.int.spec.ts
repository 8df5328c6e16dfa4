import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url };
});
afterAll(() => db.drop());

describe('qiraa language-safety check', () => {
  it('prints PASS and exits 0 for growth language, in both tiers', async () => {
    const text = 'يتقدّم أحمد في قراءة الكلمات خطوة بخطوة.';
    const general = await runCli(['language-safety', 'check', text], env);
    expect(general.code, general.stderr).toBe(0);
    expect(general.stdout).toBe('PASS (general tier, rule set 1)\n');
    const parent = await runCliInProcess(['language-safety', 'check', text, '--tier', 'parent'], env);
    expect(parent.code, parent.stderr).toBe(0);
    expect(parent.stdout).toBe('PASS (parent tier, rule set 1)\n');
  });

  it('prints the rewrite and each fired rule, and exits 1', async () => {
    const run = await runCliInProcess(['language-safety', 'check', 'الطالبُ ضعيفٌ وأقلُّ من زملائه'], env);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe(
      [
        'REWRITE (general tier, rule set 1)',
        '  الطالبُ في طور التعلّم ويتقدّم بوتيرته الخاصة',
        'fired:',
        '  LS-DEF-001  ضعيفٌ',
        '  LS-CMP-001  وأقلُّ من زملائه',
        '',
      ].join('\n'),
    );
  });

  it('passes figures and internal tokens in the general tier and removes them in the parent tier', async () => {
    const text = 'قرأ ٤٥ كلمة بدقة 90% (PR2-00)';
    const general = await runCliInProcess(['language-safety', 'check', text], env);
    expect(general.code, general.stderr).toBe(0);
    const parent = await runCliInProcess(['language-safety', 'check', text, '--tier', 'parent'], env);
    expect(parent.code, parent.stderr).toBe(1);
    expect(parent.stdout).toContain('  قرأ كلمة بدقة ()\n');
    expect(parent.stdout).toMatch(/LS-NUM-002 {2}٤٥\n {2}LS-PCT-001 {2}90%\n {2}LS-TOK-002 {2}PR2-00\n$/);
  });

  it('refuses an unknown tier or a missing text with exit code 2', async () => {
    const tier = await runCliInProcess(['language-safety', 'check', 'نص', '--tier', 'teacher'], env);
    expect(tier.code).toBe(2);
    expect(tier.stderr).toMatch(/Allowed choices are general, parent/);
    expect((await runCliInProcess(['language-safety', 'check'], env)).code).toBe(2);
  });

  it('reports an unavailable rule set on stderr with exit code 1', async () => {
    await db.sql`alter table language_safety_rules rename to language_safety_rules_gone`;
    try {
      const run = await runCliInProcess(['language-safety', 'check', 'نص'], env);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/language-safety rule set unavailable \(rule_tables_missing\)/);
    } finally {
      await db.sql`alter table language_safety_rules_gone rename to language_safety_rules`;
    }
  });
});
