import { describe, expect, it } from 'vitest';
import { visualRuns } from './visualRuns';

/** What the runs show, left to right, as characters (a right-to-left Arabic run is shown reversed). */
const shown = (line: string) =>
  visualRuns(line)
    .map((r) => (r.rtl && /[\u0600-\u06ff]/.test(r.text) ? [...r.text].reverse().join('') : r.text))
    .join('');

describe('visualRuns', () => {
  it('keeps a line of Arabic as one right-to-left run in logical order (the shaper lays it out)', () => {
    expect(visualRuns('ذهب الولد إلى المدرسة')).toEqual([{ text: 'ذهب الولد إلى المدرسة', rtl: true }]);
  });

  it('keeps digits left to right inside Arabic and puts them where the bidi algorithm does', () => {
    const runs = visualRuns('قرأ 25 كلمة');
    expect(runs).toEqual([
      { text: ' كلمة', rtl: true },
      { text: '25', rtl: false },
      { text: 'قرأ ', rtl: true },
    ]);
  });

  it('places a Latin word between Arabic words, left to right', () => {
    expect(shown('كلمة ABC أخرى')).toBe('ىرخأ ABC ةملك');
  });

  it('mirrors brackets inside right-to-left text', () => {
    expect(shown('قرأ (بصوت) عال')).toBe('لاع (توصب) أرق');
  });

  it('returns nothing for an empty line', () => {
    expect(visualRuns('')).toEqual([]);
  });
});
