import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, NOTIFICATION_PAYLOADS } from '../schemas/notificationKinds';
import { SAMPLE_PAYLOADS } from '../schemas/samplePayloads';
import { NOTIFICATION_PAYLOAD_VIEWS, payloadView, RECIPIENT_PERSONAS } from './payloadViews';

describe('per-persona payload views', () => {
  it.each(NOTIFICATION_KINDS)('%s: staff see every payload field, a parent only display names', (kind) => {
    const fields = Object.keys(NOTIFICATION_PAYLOADS[kind].properties).sort();
    for (const persona of RECIPIENT_PERSONAS) {
      const keys = [...NOTIFICATION_PAYLOAD_VIEWS[kind][persona]];
      for (const key of keys) expect(fields).toContain(key);
      if (persona === 'PARENT') for (const key of keys) expect(key).toMatch(/^[a-z][A-Za-z]*(Name|Ar)$/);
      else expect(keys.sort()).toEqual(fields);
    }
  });

  it('cuts a payload to the view, and gives an unknown persona or kind nothing', () => {
    const sample = SAMPLE_PAYLOADS.benchmark_profile_swap;
    expect(payloadView('benchmark_profile_swap', 'PARENT', sample)).toEqual({ studentName: 'سارة' });
    expect(payloadView('benchmark_profile_swap', 'ADMIN', sample)).toEqual(sample);
    expect(payloadView('benchmark_profile_swap', 'STUDENT', sample)).toEqual({});
    expect(payloadView('retired_kind', 'TEACHER', sample)).toEqual({});
  });
});
