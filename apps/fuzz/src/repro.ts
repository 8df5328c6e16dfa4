import type { FuzzCase } from './cases';
import type { FuzzRequest } from './request';

const MAX_BODY = 240;

/** Shell-safe ANSI-C quoting that shows NUL, lone surrogates and other invisible characters. */
function quote(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i += 1) {
    const code = s.charCodeAt(i);
    const ch = s[i] as string;
    if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code > 0x7e && (code < 0xa0 || (code >= 0xd800 && code <= 0xdfff) || code >= 0xfff0 || code === 0xfeff))
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if (code >= 0x200b && code <= 0x202e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `$'${out}'`;
}

const shorten = (s: string) => (s.length > MAX_BODY ? `${s.slice(0, MAX_BODY)}...(+${s.length - MAX_BODY} chars)` : s);

/** A curl-like command; tokens are shown as <token:persona> so lines stay short and free of secrets. */
export function curl(req: FuzzRequest, persona: string): string {
  const parts = ['curl', '-X', req.method, quote(`http://localhost:3000${shorten(req.url)}`)];
  for (const [name, value] of Object.entries(req.headers)) {
    const shown = name === 'authorization' && !persona.startsWith('bad-token') ? `Bearer <token:${persona}>` : value;
    parts.push('-H', quote(`${name}: ${shorten(shown)}`));
  }
  if (req.body !== undefined) parts.push('--data-raw', quote(shorten(req.body)));
  return parts.join(' ');
}

/** One line per failure: how to replay it, what broke, and the request. */
export function reproLine(seed: number, c: FuzzCase, problem: string): string {
  const replay = `npm run fuzz -- --seed ${seed} --route '${c.route}' --case ${c.index}`;
  return `FUZZ seed=${seed} route="${c.route}" case=${c.index} ${c.label} persona=${c.persona.name}: ${problem} | ${replay} | ${curl(c.request, c.persona.name)}`;
}
