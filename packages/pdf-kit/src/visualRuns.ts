import bidiFactory from 'bidi-js';

const bidi = bidiFactory();

/** A piece of one line in one direction, ready for a font: `text` is what to hand to the shaper. */
export interface VisualRun {
  /** For a right-to-left run: the logical characters (mirrored where needed); the shaper reverses them. */
  readonly text: string;
  readonly rtl: boolean;
}

const STRONG_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

/**
 * One line of a right-to-left paragraph as runs in visual order, left to right (Unicode bidi algorithm,
 * rules L1-L4). fontkit shapes Arabic and lays an Arabic run out right to left by itself, so a right-to-left
 * run that holds Arabic is handed over in logical order; one of neutrals only (e.g. "(") is handed over
 * already reversed, since fontkit would lay it out left to right.
 */
export function visualRuns(line: string): VisualRun[] {
  if (line.length === 0) return [];
  const embedding = bidi.getEmbeddingLevels(line, 'rtl');
  const order = bidi.getReorderedIndices(line, embedding);
  const runs: VisualRun[] = [];
  let start = 0;
  while (start < order.length) {
    const first = order[start]!;
    const rtl = (embedding.levels[first]! & 1) === 1;
    const step = rtl ? -1 : 1;
    let end = start + 1;
    while (
      end < order.length &&
      order[end] === order[end - 1]! + step &&
      (embedding.levels[order[end]!]! & 1) === (rtl ? 1 : 0)
    ) {
      end++;
    }
    const indices = order.slice(start, end);
    if (rtl) {
      const logical = indices
        .reverse()
        .map((i) => bidi.getMirroredCharacter(line[i]!) ?? line[i]!)
        .join('');
      runs.push({ text: STRONG_RTL.test(logical) ? logical : [...logical].reverse().join(''), rtl });
    } else {
      runs.push({ text: indices.map((i) => line[i]!).join(''), rtl });
    }
    start = end;
  }
  return runs;
}
