import { describe, expect, it } from 'vitest';
import { contentDisposition } from './contentDisposition';

describe('contentDisposition', () => {
  it('gives an ASCII filename and the Arabic name percent-encoded as UTF-8, without harakat', () => {
    const header = contentDisposition('word-list-g1-fw-boy-v1.pdf', 'ورقة كلمات - قِرَاءَة');
    expect(header).toBe(
      `attachment; filename="word-list-g1-fw-boy-v1.pdf"; filename*=UTF-8''${encodeURIComponent('ورقة كلمات - قراءة')}`,
    );
    const encoded = header.split("filename*=UTF-8''")[1]!;
    expect(decodeURIComponent(encoded)).toBe('ورقة كلمات - قراءة');
  });

  it('keeps quotes, slashes and RFC 5987 specials out of both names', () => {
    const header = contentDisposition('a"b/c.pdf', 'نص (أ)/"ب"*');
    const [, ascii, encoded] = header.match(/^attachment; filename="([^"]*)"; filename\*=UTF-8''(\S+)$/) ?? [];
    expect(ascii).toBe('a-b-c.pdf');
    // attr-char of RFC 5987: ALPHA / DIGIT / "!#$&+-.^_`|~", everything else percent-encoded
    expect(encoded).toMatch(/^(?:[A-Za-z0-9!#$&+.^_`|~-]|%[0-9A-F]{2})+$/);
    expect(decodeURIComponent(encoded!)).toBe('نص (أ) ب');
  });
});
