import { connect, inTransaction, type TransactionSql } from '@qiraa/db';
import { createTestDatabase } from '@qiraa/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { languageSafetyUnavailableApiError } from './apiError';
import { LanguageSafetyUnavailableError } from './errors';
import { loadLanguageSafety, reloadLanguageSafety } from './loadLanguageSafety';
import type { LanguageSafetyTier } from './rules';

// The rows are read before the tests are collected, so every seeded rule gets a test of its own.
const db = await createTestDatabase();
afterAll(() => db.drop());

interface SeededRule {
  rule_id: string;
  tier: LanguageSafetyTier;
  kind: string;
  example: string;
}
const seeded = await db.sql<SeededRule[]>`
  select rule_id, tier, kind, example from language_safety_rules
  where rule_set_version = (select max(version) from language_safety_rule_sets)
  order by rule_id`;
const general = seeded.filter((r) => r.tier === 'general');
const parent = seeded.filter((r) => r.tier === 'parent');
const filter = await loadLanguageSafety(db.sql);

const firedIds = (text: string, tier: LanguageSafetyTier) => {
  const result = filter.check(text, tier);
  return result.kind === 'pass' ? [] : result.fired.map((f) => f.ruleId);
};

/** Rolls the transaction back after `work`, so a test can break the rule tables of its own database. */
async function inRolledBackTransaction(work: (tx: TransactionSql) => Promise<void>): Promise<void> {
  const rollback = new Error('rollback');
  await expect(
    inTransaction(db.sql, async ({ sql: tx }) => {
      await work(tx);
      throw rollback;
    }),
  ).rejects.toBe(rollback);
}

async function expectUnavailable(load: Promise<unknown>, reason: string): Promise<void> {
  const error = await load.then(
    () => expect.unreachable('the rule set loaded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LanguageSafetyUnavailableError);
  expect((error as LanguageSafetyUnavailableError).reason).toBe(reason);
}

describe('the seeded rule set (version 1)', () => {
  it('is loaded from the database with dozens of rules per tier and kind', () => {
    expect(filter.version).toBe(1);
    expect(filter.rules).toHaveLength(seeded.length);
    const count = (tier: string, kind: string) => seeded.filter((r) => r.tier === tier && r.kind === kind).length;
    expect(count('general', 'word')).toBeGreaterThanOrEqual(40);
    expect(count('general', 'comparison')).toBeGreaterThanOrEqual(10);
    expect(count('parent', 'pattern')).toBeGreaterThanOrEqual(8);
    expect(seeded.filter((r) => /^LS-(DEF|LBL)-/.test(r.rule_id)).length).toBeGreaterThanOrEqual(40);
  });
});

describe.each(general)('general rule $rule_id', ({ rule_id, example }) => {
  it('fires, alone, on its example in the general tier', () => {
    expect(firedIds(example, 'general')).toEqual([rule_id]);
  });
  it('fires, alone, on its example in the parent tier too', () => {
    expect(firedIds(example, 'parent')).toEqual([rule_id]);
  });
  it('rewrites its example into text that passes both tiers', () => {
    const result = filter.check(example, 'general');
    expect(result.kind).toBe('rewrite');
    if (result.kind !== 'rewrite') return;
    expect(result.rewritten).not.toBe(example);
    expect(filter.check(result.rewritten, 'general'), result.rewritten).toEqual({ kind: 'pass' });
    expect(filter.check(result.rewritten, 'parent'), result.rewritten).toEqual({ kind: 'pass' });
  });
});

describe.each(parent)('parent rule $rule_id', ({ rule_id, example }) => {
  it('fires, alone, on its example in the parent tier', () => {
    expect(firedIds(example, 'parent')).toEqual([rule_id]);
  });
  it('lets its example pass the general tier', () => {
    expect(filter.check(example, 'general')).toEqual({ kind: 'pass' });
  });
  it('rewrites its example into text that passes the parent tier', () => {
    const result = filter.check(example, 'parent');
    if (result.kind !== 'rewrite') return expect.unreachable();
    expect(filter.check(result.rewritten, 'parent'), result.rewritten).toEqual({ kind: 'pass' });
  });
});

// What teachers, students and parents should see: growth language, no comparison, no number.
const GROWTH_SENTENCES = [
  'أحسنت! قرأتَ الكلمات بثقة.',
  'يتقدّم أحمد في قراءة الكلمات خطوة بخطوة.',
  'تتعلّم سارة أصوات الحروف وتتحسّن قراءتها كل يوم.',
  'نقترح قراءة قصة قصيرة معًا قبل النوم.',
  'يستفيد طفلك من التدرّب على الكلمات الشائعة في البيت.',
  'ما زالت مريم تتدرّب على قراءة المقاطع الطويلة، وهي تتقدّم بثبات.',
  'شارك يوسف في نشاط القراءة الجماعية مع زملائه بحماس.',
  'تعلّم من زملائه طريقة جديدة لتهجئة الكلمات.',
  'يقرأ نصوص الصف الأول بطلاقة متزايدة.',
  'ننصح بالقراءة بصوت منخفض في مكان هادئ.',
  'رتّب الكلمات لتكوّن جملة مفيدة.',
  'أتقنت ليلى حروف المدّ، وهي الآن تتدرّب على التنوين.',
  'يسعدنا أن نشاركك تقدّم ابنتك في القراءة هذا الشهر.',
  'يحتاج عمر إلى مزيد من التدرّب على الحروف المتشابهة، ونحن نرافقه خطوة بخطوة.',
  'خطوات تعلّم كثيرة في هذه الفترة',
  'كل خطوة تُحسب',
  'انتقالات إلى مستويات أعلى في هذه الفترة',
  'المستوى التالي في الطريق',
  'صرتَ تقرأ بمساعدة أقلّ ثلاث مرّات.',
  'He is making steady progress in reading.',
];

describe('growth-language sentences', () => {
  it.each(GROWTH_SENTENCES)('passes both tiers: %s', (sentence) => {
    expect(filter.check(sentence, 'general')).toEqual({ kind: 'pass' });
    expect(filter.check(sentence, 'parent')).toEqual({ kind: 'pass' });
  });
});

describe('digits, percent signs and internal tokens', () => {
  it.each([
    ['قرأ 37 كلمة', 'LS-NUM-001'],
    ['قرأ ٣٧ كلمة', 'LS-NUM-002'],
    ['قرأ ۳۷ كلمة', 'LS-NUM-003'],
    ['الدقة 92.5%', 'LS-PCT-001'],
    ['الدقة ٩٢٫٥٪', 'LS-PCT-001'],
    ['الدقة %90', 'LS-PCT-001'],
    ['نسبة صغيرة %', 'LS-PCT-002'],
    ['تحسّن في المائة من الأيام', 'LS-PCT-003'],
    ['الحالة DO_NOT_DECIDE_YET', 'LS-TOK-001'],
    ['الحالة do_not_decide_yet', 'LS-TOK-001'],
    ['الحالة DATA_INCOMPLETE', 'LS-TOK-001'],
    ['المجموعة MERGE_L1_L2', 'LS-TOK-001'],
    ['الملف PR2-00', 'LS-TOK-002'],
    ['القاعدة LS-DEF-012', 'LS-TOK-002'],
    ['الرمز GL-005', 'LS-TOK-002'],
    ['الدور PARENT', 'LS-TOK-003'],
    ['القيمة SkillStatus', 'LS-TOK-004'],
  ])('%s passes the general tier and is rewritten by %s in the parent tier', (text, ruleId) => {
    expect(filter.check(text, 'general')).toEqual({ kind: 'pass' });
    expect(firedIds(text, 'parent')).toEqual([ruleId]);
  });

  it('removes every figure from a parent string', () => {
    const result = filter.check('قرأ ١٢ كلمة من 20 بدقة ۸۰٪ (PR2-00)', 'parent');
    expect(result).toMatchObject({ kind: 'rewrite', rewritten: 'قرأ كلمة من بدقة ()' });
  });
});

describe('when the rule set cannot be loaded', () => {
  it('is unavailable when the rules table is renamed', async () => {
    await inRolledBackTransaction(async (tx) => {
      await tx`alter table language_safety_rules rename to language_safety_rules_gone`;
      await expectUnavailable(reloadLanguageSafety(tx), 'rule_tables_missing');
    });
  });

  it('is unavailable when the rules table is emptied, even after a successful load', async () => {
    await inRolledBackTransaction(async (tx) => {
      expect((await loadLanguageSafety(tx)).version).toBe(1);
      await tx`truncate language_safety_rules`;
      await expectUnavailable(loadLanguageSafety(tx, { maxAgeMs: 0 }), 'rule_set_empty');
    });
  });

  it('is unavailable when no version is published', async () => {
    await inRolledBackTransaction(async (tx) => {
      await tx`truncate language_safety_rules, language_safety_rule_sets`;
      await expectUnavailable(reloadLanguageSafety(tx), 'no_rule_set');
    });
  });

  it('is unavailable when a stored rule does not compile', async () => {
    await inRolledBackTransaction(async (tx) => {
      await tx`insert into language_safety_rule_sets (version, description) values (2, 'broken')`;
      await tx`
        insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_regex, example, gloss)
        values (2, 'LS-TOK-099', 'parent', 'pattern', '[unclosed', 'x', 'broken regex')`;
      await expectUnavailable(reloadLanguageSafety(tx), 'rule_invalid');
    });
  });

  it('is unavailable when the database cannot be reached', async () => {
    const down = connect('postgres://nobody@127.0.0.1:1/none', { max: 1 });
    try {
      await expectUnavailable(loadLanguageSafety(down), 'database_error');
    } finally {
      await down.end({ timeout: 1 });
    }
  });

  it('maps to the 503 LANGUAGE_SAFETY_UNAVAILABLE envelope', async () => {
    await inRolledBackTransaction(async (tx) => {
      await tx`alter table language_safety_rules rename to language_safety_rules_gone`;
      const error = await reloadLanguageSafety(tx).catch((e: LanguageSafetyUnavailableError) => e);
      const apiError = languageSafetyUnavailableApiError(error as LanguageSafetyUnavailableError);
      expect(apiError.status).toBe(503);
      expect(apiError.toBody()).toMatchObject({ code: 'LANGUAGE_SAFETY_UNAVAILABLE' });
    });
  });
});

describe('versions are forward-only', () => {
  it('refuses to change or delete a published rule or version, or to add a rule to it', async () => {
    await expect(
      db.sql`update language_safety_rules set replacement = 'x' where rule_id = 'LS-DEF-001'`,
    ).rejects.toThrow(/forward-only/);
    await expect(db.sql`delete from language_safety_rules where rule_id = 'LS-DEF-001'`).rejects.toThrow(
      /forward-only/,
    );
    await expect(db.sql`delete from language_safety_rule_sets where version = 1`).rejects.toThrow(/forward-only/);
    await expect(
      db.sql`
        insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, example, gloss)
        values (1, 'LS-DEF-999', 'general', 'word', 'سيئون', 'هم سيئون', 'late addition')`,
    ).rejects.toThrow(/already published/);
  });

  it('refuses a match text that is not normalized', async () => {
    await inRolledBackTransaction(async (tx) => {
      await tx`insert into language_safety_rule_sets (version, description) values (2, 'bad text')`;
      for (const text of ['ضعيفة', 'أضعف', 'ضَعيف', 'Weak', 'ضعـيف']) {
        await expect(
          tx.savepoint(
            (sp) => sp`
              insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, example, gloss)
              values (2, 'LS-DEF-001', 'general', 'word', ${text}, 'x', 'x')`,
          ),
          text,
        ).rejects.toThrow(/check constraint/);
      }
    });
  });

  it('applies the highest version: a new version drops a rule and adds one', async () => {
    await inRolledBackTransaction(async (tx) => {
      await tx`insert into language_safety_rule_sets (version, description) values (2, 'drop LS-DEF-001, add LS-DEF-088')`;
      await tx`
        insert into language_safety_rules
          (rule_set_version, rule_id, tier, kind, match_text, match_regex, case_sensitive, replacement, example, gloss)
        select 2, rule_id, tier, kind, match_text, match_regex, case_sensitive, replacement, example, gloss
        from language_safety_rules where rule_set_version = 1 and rule_id <> 'LS-DEF-001'`;
      await tx`
        insert into language_safety_rules (rule_set_version, rule_id, tier, kind, match_text, replacement, example, gloss)
        values (2, 'LS-DEF-088', 'general', 'word', 'مقصر', 'بحاجة إلى دعم', 'الطالب مقصّر', 'falling short (m.)')`;
      const v2 = await reloadLanguageSafety(tx);
      expect(v2.version).toBe(2);
      expect(v2.rules).toHaveLength(seeded.length);
      expect(v2.check('الطالب ضعيف', 'general')).toEqual({ kind: 'pass' });
      expect(v2.check('الطالب مقصّر', 'general')).toMatchObject({ fired: [{ ruleId: 'LS-DEF-088', match: 'مقصّر' }] });
    });
  });
});

describe('caching and determinism', () => {
  it('reuses the loaded rule set within its lifetime and shares a read between concurrent callers', async () => {
    expect(await loadLanguageSafety(db.sql)).toBe(filter);
    const other = db.connectAgain(2);
    const [a, b] = await Promise.all([loadLanguageSafety(other), loadLanguageSafety(other)]);
    expect(a).toBe(b);
    expect(a).not.toBe(filter);
    expect(await reloadLanguageSafety(other)).not.toBe(a);
  });

  it('gives the same answer for every example, every time, from separately loaded rule sets', async () => {
    const again = await reloadLanguageSafety(db.connectAgain(1));
    const texts = [...seeded.map((r) => r.example), ...GROWTH_SENTENCES, seeded.map((r) => r.example).join(' ')];
    for (const tier of ['general', 'parent'] as const) {
      const first = texts.map((t) => filter.check(t, tier));
      expect(texts.map((t) => filter.check(t, tier))).toEqual(first);
      expect(texts.map((t) => again.check(t, tier))).toEqual(first);
    }
  });
});
