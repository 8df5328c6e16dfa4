import { describe, expect, it } from 'vitest';
import { bodyHashOf } from './sendTraining';

describe('a send body’s idempotency fingerprint', () => {
  it('ignores key order, tells apart any changed, added or removed field', () => {
    const a = bodyHashOf({ classId: 'cls_1', untilDate: '2026-11-01', skillId: 'letter_sounds' });
    expect(bodyHashOf({ skillId: 'letter_sounds', untilDate: '2026-11-01', classId: 'cls_1' })).toBe(a);
    expect(bodyHashOf({ classId: 'cls_1', untilDate: '2026-11-02', skillId: 'letter_sounds' })).not.toBe(a);
    expect(bodyHashOf({ classId: 'cls_1', untilDate: '2026-11-01' })).not.toBe(a);
    expect(
      bodyHashOf({ classId: 'cls_1', untilDate: '2026-11-01', skillId: 'letter_sounds', untilTime: '10:00' }),
    ).not.toBe(a);
  });
});
