import type { ReadEvidence, SittingEvidence, StudentEvidence } from '@qiraa/assessment';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENT_RULE_SET, STATUS_TOKENS } from '../rules/ruleSet';
import { decideSkillStatuses } from './decideSkillStatuses';

const SUB_SKILLS = ['fw_common_words', 'lc_explicit_detail', 'or_connected_text'];
const WINDOWS = ['BOY', 'MOY'] as const;

const sitting = fc
  .record({
    n: fc.nat(1000),
    window: fc.constantFrom(...WINDOWS),
    subSkillId: fc.constantFrom(...SUB_SKILLS),
    correct: fc.array(fc.option(fc.boolean(), { nil: null }), { minLength: 1, maxLength: 6 }),
  })
  .map(
    ({ n, window, subSkillId, correct }): SittingEvidence => ({
      kind: 'digital_sitting',
      attemptId: `s${n}`,
      academicYear: '2026-2027',
      window,
      grade: 2,
      mode: 'window',
      startedAt: `2026-09-${String((n % 28) + 1).padStart(2, '0')}T08:00:00Z`,
      endedAt: '2026-09-30T08:00:00Z',
      endReason: 'completed',
      startedEventId: `s${n}-start`,
      endedEventId: `s${n}-end`,
      subSkillIds: [subSkillId],
      questions: correct.map((c, position) => ({
        position,
        itemId: `i${position}`,
        measureCode: 'm',
        subSkillId,
        correct: c,
        eventId: c === null ? null : `s${n}-a${position}`,
      })),
      measures: [],
    }),
  );

const read = fc
  .record({
    n: fc.nat(1000),
    window: fc.constantFrom(...WINDOWS),
    band: fc.option(fc.constantFrom(...STATUS_TOKENS), { nil: null }),
  })
  .map(
    ({ n, window, band }): ReadEvidence => ({
      kind: 'oral_word_list',
      attemptId: `r${n}`,
      cell: 'oral_familiar_words',
      academicYear: '2026-2027',
      window,
      grade: 2,
      at: `2026-09-${String((n % 28) + 1).padStart(2, '0')}T09:00:00Z`,
      eventIds: [`r${n}-read`],
      timed: true,
      attempted: 10,
      errors: 1,
      correct: 9,
      elapsedSeconds: 60,
      wcpm: 9,
      accuracy: 90,
      accuracyBand: band,
      rateBand: band,
      band,
      bandBasis: band ? 'lower_of' : null,
      provisional: false,
      cutVersion: null,
    }),
  );

const evidence = fc
  .record({
    sittings: fc.uniqueArray(sitting, { selector: (s) => s.attemptId, maxLength: 5 }),
    reads: fc.uniqueArray(read, { selector: (r) => r.attemptId, maxLength: 5 }),
  })
  .map((e): StudentEvidence => ({ studentId: 1, ...e, voided: [], allVoidedWindows: [] }));

describe('decideSkillStatuses properties', () => {
  it('the order evidence arrives in never changes a decision', () => {
    fc.assert(
      fc.property(evidence, fc.nat(), (e, seed) => {
        const shuffled = <T>(list: T[]) =>
          list
            .map((x, i) => ({ x, k: (i * 7919 + seed) % 104_729 }))
            .sort((a, b) => a.k - b.k)
            .map((p) => p.x);
        const again = { ...e, sittings: shuffled([...e.sittings]), reads: shuffled([...e.reads]) };
        expect(decideSkillStatuses(again, CURRENT_RULE_SET)).toEqual(decideSkillStatuses(e, CURRENT_RULE_SET));
      }),
    );
  });

  it('a status is set exactly when no safe stop holds, and rule ids are null only on the no-evidence row', () => {
    fc.assert(
      fc.property(evidence, (e) => {
        for (const d of decideSkillStatuses(e, CURRENT_RULE_SET)) {
          expect(d.status === null).toBe(d.doNotDecideYet);
          expect(d.adrRuleId).not.toBeNull();
          if (!d.doNotDecideYet) expect(d.ssrRuleId).not.toBeNull();
        }
      }),
    );
  });
});
