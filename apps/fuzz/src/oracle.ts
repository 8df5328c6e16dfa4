import type { FuzzCase } from './cases';

/** What a tenant probe may get: 404, or a refusal that comes before any lookup (input, session, rate). */
const TENANT_OK = new Set([400, 401, 404, 422, 429]);

/** The spec's explicit exception (Tenant context rule 11): student tokens receive 403 on every leaderboard route. */
const tenantException = (c: FuzzCase) => c.persona.name === 'a.student' && c.route.includes(' /api/leaderboards/');

/**
 * Keys of fastify's own error body: seeing them means an error bypassed the error mapper. (Other extra keys are
 * allowed: word lists document a `reject` report beside the envelope, docs/word-lists.md.)
 */
const FRAMEWORK_KEYS = ['error', 'statusCode'];

const sameAnswer = (x: Answer, y: Answer) => x.statusCode === y.statusCode && x.body === y.body;

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
    // The target is resolved before any permission: B's resource is 404 for every caller of A, even one whose
    // role could never use the route (a 403 there is still an answer about B's resource).
    // A list filter naming B's resource may answer like a filter naming nothing (the same 2xx, byte for byte).
    const sameAsMissingFilter =
      c.request.method === 'GET' && c.foreignRef.startsWith('query:') && status < 300 && sameAnswer(res, twin);
    if (!TENANT_OK.has(status) && !(status === 403 && tenantException(c)) && !sameAsMissingFilter) {
      return `tenant: ${status} for organization B's ${c.foreignRef} (want 404)`;
    }
    // "Exactly like a missing id": any difference tells the caller that B's resource exists.
    if (status !== twin.statusCode) {
      return `tenant: ${status} for organization B's ${c.foreignRef}, ${twin.statusCode} for a missing id (want the same)`;
    }
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
  if (!/^[A-Z][A-Z0-9_]*$/.test(e.code) || e.code.startsWith('FST_')) return `code ${e.code} is not an API code`;
  const extra = FRAMEWORK_KEYS.filter((k) => k in e);
  if (extra.length > 0) return `fastify's own error keys: ${extra.join(', ')}`;
  if (typeof e.message !== 'string') return 'no string message';
  if (e.details !== undefined) {
    if (!Array.isArray(e.details)) return 'details is not an array';
    const bad = e.details.find(
      (d) => !d || typeof d !== 'object' || typeof d.field !== 'string' || typeof d.issue !== 'string',
    );
    if (bad !== undefined) return `a details entry is not { field, issue }: ${JSON.stringify(bad).slice(0, 60)}`;
  }
  if (e.retryAfter !== undefined && typeof e.retryAfter !== 'number') return 'retryAfter is not a number';
  if (e.reason !== undefined && typeof e.reason !== 'string') return 'reason is not a string';
  return null;
}
