import type { FuzzCase } from './cases';

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * The properties every answer must have. Returns the broken rule (short, stable: failures group by it), or
 * null when the answer is fine.
 */
export function judge(c: FuzzCase, secured: boolean, res: Answer, twin?: Answer): string | null {
  const status = res.statusCode;
  if (status >= 500) return `status ${status} (no 5xx)`;
  // A HEAD answer has no body by definition (RFC 9110), so only its status can be judged.
  if (status >= 400 && c.request.method !== 'HEAD') {
    const broken = envelopeProblem(res);
    if (broken) return `${status} without the ApiError envelope: ${broken}`;
  }
  if (c.foreignRef && twin) {
    // "Exactly like a missing id": a different answer (403, 409, 2xx...) tells the caller B's resource exists.
    // A route-level permission refusal (403 for both) leaks nothing and passes.
    if (status !== twin.statusCode) {
      return `tenant: ${status} for organization B's ${c.foreignRef}, ${twin.statusCode} for a missing id (want the same, 404)`;
    }
    if (status < 300 && c.request.method !== 'GET')
      return `tenant: a write naming B's ${c.foreignRef} answered ${status}`;
  }
  if (c.badToken && secured && status < 400) return `bad token accepted: ${status}`;
  return null;
}

function envelopeProblem(res: Answer): string | null {
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `body is not JSON (${JSON.stringify(res.body.slice(0, 60))})`;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body is not an object';
  const e = body as Record<string, unknown>;
  if (typeof e.code !== 'string') return 'no string code';
  if (typeof e.message !== 'string') return 'no string message';
  if (e.details !== undefined && !Array.isArray(e.details)) return 'details is not an array';
  if (e.retryAfter !== undefined && typeof e.retryAfter !== 'number') return 'retryAfter is not a number';
  if (e.reason !== undefined && typeof e.reason !== 'string') return 'reason is not a string';
  return null;
}
