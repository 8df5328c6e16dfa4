const HARAKAT = /[\u064b-\u065f\u0670\u0640]/g;

/** RFC 5987 value characters: percent-encode everything else (encodeURIComponent leaves ' ( ) * bare). */
const rfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment` with an ASCII `filename` for old clients and the Arabic name as `filename*=UTF-8''…`
 * (RFC 6266, RFC 5987). Harakat and tatweel are dropped from the Arabic name: a file name is searched, not
 * read aloud. The ASCII name keeps only characters safe inside quotes.
 */
export function contentDisposition(asciiName: string, arabicName: string): string {
  const ascii = asciiName.replace(/[^A-Za-z0-9._-]/g, '-');
  const arabic = arabicName
    .replace(HARAKAT, '')
    .replace(/[\\/:*?"<>|\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(arabic)}`;
}
