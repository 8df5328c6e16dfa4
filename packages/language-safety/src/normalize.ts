/**
 * Arabic normalization before matching. Every rule and every checked string is folded the same way, so a rule
 * written `ضعيف` also catches `ضَعِيفٌ`, `ضعـــيف` and `ضعيف` typed with a zero-width joiner inside.
 *
 * | input                                                           | becomes          |
 * | --------------------------------------------------------------- | ---------------- |
 * | alef with hamza or madda, alef wasla: أ إ آ ٱ                   | bare alef ا      |
 * | taa marbuta ة                                                   | haa ه            |
 * | alef maqsura ى                                                  | yaa ي            |
 * | harakat and tanween U+064B–U+0652, other combining marks        | removed          |
 * | (U+0653–U+065F, U+0610–U+061A, U+06D6–U+06ED), superscript alef |                  |
 * | U+0670, tatweel ـ                                               |                  |
 * | invisible format characters (zero-width space, joiners, bidi    | removed          |
 * | marks and embeddings, soft hyphen, byte-order mark)             |                  |
 * | Latin capitals A–Z                                              | a–z (folded only)|
 * | typographic apostrophes ’ ‘ ʼ                                   | '                |
 *
 * Removing characters shortens the string, so the result carries, for every kept character, its index in the
 * input: matches found on the normalized text are rewritten in the original text, diacritics and all.
 */
export interface NormalizedText {
  /** Normalized and with Latin lowercased: what word, comparison and most pattern rules match. */
  readonly folded: string;
  /** The same text with Latin case kept (same length as `folded`): for case-sensitive pattern rules. */
  readonly cased: string;
  /** `map[i]` is the index in the original text of normalized character `i`. */
  readonly map: readonly number[];
  /** Length of the original text. */
  readonly originalLength: number;
}

const REPLACED: Readonly<Record<string, string>> = {
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ة: 'ه',
  ى: 'ي',
  '’': "'",
  '‘': "'",
  ʼ: "'",
};

function removed(code: number): boolean {
  return (
    (code >= 0x064b && code <= 0x065f) || // harakat, tanween, sukun, shadda, maddah/hamza above and below, ...
    code === 0x0670 || // superscript (dagger) alef
    code === 0x0640 || // tatweel
    (code >= 0x0610 && code <= 0x061a) || // small high signs
    (code >= 0x06d6 && code <= 0x06ed) || // Quranic annotation marks
    code === 0x061c || // Arabic letter mark
    code === 0x00ad || // soft hyphen
    (code >= 0x200b && code <= 0x200f) || // zero-width space, non-joiner, joiner, LRM, RLM
    (code >= 0x202a && code <= 0x202e) || // bidi embeddings and overrides
    (code >= 0x2066 && code <= 0x2069) || // bidi isolates
    code === 0xfeff // byte-order mark / zero-width no-break space
  );
}

export function normalizeWithMap(text: string): NormalizedText {
  let folded = '';
  let cased = '';
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = ch.charCodeAt(0);
    if (removed(code)) continue;
    const out = REPLACED[ch] ?? ch;
    cased += out;
    folded += code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : out;
    map.push(i);
  }
  return { folded, cased, map, originalLength: text.length };
}

/** The folded form alone: how a rule's match text is stored and how two strings are compared. */
export function normalizeArabic(text: string): string {
  return normalizeWithMap(text).folded;
}
