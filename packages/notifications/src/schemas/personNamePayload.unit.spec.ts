import { compileBodyValidator } from '@qiraa/http-kit';
import { isPersonName, normalizePersonName, PersonNameInput } from '@qiraa/kernel';
import { describe, expect, it } from 'vitest';
import { validatePayload } from '../commands/dispatch';
import { NOTIFICATION_KINDS, NOTIFICATION_PAYLOADS } from './notificationKinds';
import { SAMPLE_PAYLOADS } from './samplePayloads';

/**
 * Issue 22, "No alert is lost": the roster and every payload naming a child share one PersonName rule, so a
 * name the roster takes (its request schema, then normalised as the enrol command stores it) is never refused
 * by a notification's payload. The database's side (the migration, the inbox) is in
 * apps/cli/src/reactionsNoAlertLost.int.spec.ts.
 */
const roster = compileBodyValidator(PersonNameInput);
const NAMING_A_CHILD = NOTIFICATION_KINDS.filter((kind) => 'studentName' in NOTIFICATION_PAYLOADS[kind].properties);

const TAKEN = [
  ['محمد-أمين', 'محمد-أمين'],
  ['  ريم   الخطيب ', 'ريم الخطيب'],
  ['سارة\tبنت\nعلي', 'سارة بنت علي'],
  ["O'Neil", "O'Neil"],
  ['عَبْدُ الله', 'عَبْدُ الله'],
  ['أ'.repeat(120), 'أ'.repeat(120)],
] as const;
const REFUSED = ['', '   ', 'طالب 12', 'ريم!', 'ريم-', '-ريم', 'ريم--علي', 'ريم <b>', 'أ'.repeat(121)];

describe('one PersonName rule for the roster and the payloads', () => {
  it('kinds naming a child use it (at least the three alert producers’ kinds)', () => {
    expect(NAMING_A_CHILD).toEqual(
      expect.arrayContaining(['student_alert_assigned', 'cbm_alert_lifecycle', 'training_no_progress']),
    );
  });

  it.each(TAKEN)('the roster takes %j, stores %j, and every payload naming a child accepts it', (typed, stored) => {
    expect(roster(typed).ok).toBe(true);
    expect(normalizePersonName(typed)).toBe(stored);
    expect(isPersonName(stored)).toBe(true);
    for (const kind of NAMING_A_CHILD) {
      const payload = { ...SAMPLE_PAYLOADS[kind], studentName: stored };
      expect(() => validatePayload(kind, payload, undefined), kind).not.toThrow();
    }
  });

  it.each(REFUSED)('the roster refuses %j (so no payload ever carries it)', (typed) => {
    expect(roster(typed).ok).toBe(false);
    expect(isPersonName(normalizePersonName(typed))).toBe(false);
  });
});
