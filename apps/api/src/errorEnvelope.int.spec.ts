import { connect } from 'node:net';
import { useTestApp } from '@qiraa/app/testing';
import { inTransaction } from '@qiraa/db';
import { ApiError } from '@qiraa/http-kit';
import { defineContext } from '@qiraa/kernel';
import { Type } from 'typebox';
import { beforeAll, describe, expect, it } from 'vitest';

/** Routes that exist only in this spec, to drive every branch of the error mapper through real HTTP. */
const probe = defineContext({
  name: 'probe',
  projections: [],
  routes: (deps) => async (app) => {
    const Body = Type.Object({
      name: Type.String({ minLength: 2 }),
      grade: Type.Integer({ minimum: 1, maximum: 4 }),
      nested: Type.Optional(Type.Object({ code: Type.String() })),
    });
    const Query = Type.Object({ windowDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 14 })) });
    app.post(
      '/probe/echo',
      { config: { public: true }, schema: { body: Body, querystring: Query } },
      async (request) => ({
        body: request.body,
        query: request.query,
      }),
    );
    app.patch(
      '/probe/strict',
      {
        schema: { body: Type.Object({ contrast: Type.Optional(Type.Boolean()) }) },
        config: { strictBody: true, public: true },
      },
      async (request) => request.body,
    );
    app.get('/probe/boom', { config: { public: true } }, async () => {
      throw new Error('relation "secret_table" does not exist at /srv/app.ts:12');
    });
    // Database errors a request's values cause, raised by PostgreSQL itself (no validation stands in front).
    app.get('/probe/db/date', { config: { public: true } }, async (request) => {
      const { value } = request.query as { value: string };
      // Sent as text so PostgreSQL, not postgres.js's Date serializer, reads the date.
      return deps.sql`select (${value}::text)::date as day`;
    });
    app.get('/probe/db/duplicate', { config: { public: true } }, async () =>
      inTransaction(deps.sql, async ({ sql: tx }) => {
        await tx`create temp table probe_once (id int primary key) on commit drop`;
        await tx`insert into probe_once values (1), (1)`;
      }),
    );
    app.get('/probe/db/wrapped', { config: { public: true } }, async () => {
      try {
        await deps.sql`select ${'9223372036854775808'}::bigint`;
      } catch (cause) {
        throw new Error('append failed', { cause });
      }
    });
    app.get('/probe/db/missing-table', { config: { public: true } }, async () => deps.sql`select * from no_such_table`);
    app.get('/probe/limited', { config: { public: true } }, async () => {
      throw new ApiError(429, 'RATE_LIMITED', 'too many requests; retry later', { retryAfter: 42 });
    });
    app.get('/probe/conflict', { config: { public: true } }, async () => {
      throw new ApiError(409, 'CONFLICT', 'already done', { reason: 'already_voided' });
    });
  },
});

const t = useTestApp({ extraContexts: [probe] });

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as string, headers });

describe('the ApiError envelope', () => {
  it('accepts a valid body and coerces query text, not body types', async () => {
    const res = await post('/api/probe/echo?windowDays=30', { name: 'Ali', grade: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: { name: 'Ali', grade: 2 }, query: { windowDays: 30 } });
  });

  it('names every failing field, not only the first (422 VALIDATION_ERROR)', async () => {
    const res = await post('/api/probe/echo', { name: 'A', grade: '2', nested: {} });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details.map((d: { field: string }) => d.field).sort()).toEqual(['grade', 'name', 'nested.code']);
    expect(body.details.every((d: { issue: string }) => typeof d.issue === 'string' && d.issue.length > 0)).toBe(true);
  });

  it('refuses unknown body keys instead of stripping them', async () => {
    const res = await post('/api/probe/echo', { name: 'Ali', grade: 1, extra: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'extra', issue: 'is not allowed' }]);
  });

  it('answers 400 UNKNOWN_FIELD for a removed key on a strict body', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/probe/strict',
      payload: { contrast: true, passkeyPromptSuppressed: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'UNKNOWN_FIELD',
      details: [{ field: 'passkeyPromptSuppressed', issue: 'is not allowed' }],
    });
    const ok = await t.app.inject({ method: 'PATCH', url: '/api/probe/strict', payload: { contrast: true } });
    expect(ok.statusCode).toBe(200);
  });

  it('validates the query string with all errors', async () => {
    const res = await post('/api/probe/echo?windowDays=0', { name: 'Ali', grade: 1 });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('windowDays');
  });

  it('answers malformed JSON with 400 in the envelope', async () => {
    const res = await post('/api/probe/echo', '{"name": "Ali",', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'MALFORMED_JSON' });
  });

  it('answers a wrong content type with 415', async () => {
    const res = await post('/api/probe/echo', 'name=Ali', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers an unknown /api route with 404 NOT_FOUND', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no/such/route?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'no route GET /api/no/such/route' });
  });

  it('hides the cause of an unexpected failure (500 INTERNAL, no stack, no SQL)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/probe/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'INTERNAL', message: 'unexpected server error' });
    expect(res.body).not.toMatch(/secret_table|srv|stack/);
    expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('carries retryAfter in the body and Retry-After in the header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/probe/limited' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('42');
    expect(res.json()).toEqual({ code: 'RATE_LIMITED', message: 'too many requests; retry later', retryAfter: 42 });
  });

  it('carries a refusal reason', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/probe/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'CONFLICT', message: 'already done', reason: 'already_voided' });
  });

  it('echoes a well-formed x-request-id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-12345678' } });
    expect(res.headers['x-request-id']).toBe('trace-12345678');
  });

  it('answers a value PostgreSQL refuses (SQLSTATE class 22) with 422, never 500', async () => {
    for (const value of ['2026-13-45', '0000-01-01', 'nonsense']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/probe/db/date?value=${value}` });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'a value in the request cannot be stored',
        reason: 'unstorable_value',
      });
    }
    const wrapped = await t.app.inject({ method: 'GET', url: '/api/probe/db/wrapped' });
    expect(wrapped.statusCode, wrapped.body).toBe(422);
  });

  it('answers a unique violation with 409 CONFLICT, and keeps our own SQL faults a 500', async () => {
    const duplicate = await t.app.inject({ method: 'GET', url: '/api/probe/db/duplicate' });
    expect(duplicate.statusCode, duplicate.body).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'CONFLICT', reason: 'integrity' });
    const missing = await t.app.inject({ method: 'GET', url: '/api/probe/db/missing-table' });
    expect(missing.statusCode).toBe(500);
    expect(missing.json()).toEqual({ code: 'INTERNAL', message: 'unexpected server error' });
  });
});

describe('requests Node refuses before fastify sees them, over a real socket', () => {
  /** Writes `raw` to the listening app and reads until the server closes the connection. */
  async function rawExchange(raw: string): Promise<{ status: number; contentType?: string; body: string }> {
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('app is not listening');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(address.port, '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' ? resolve(text) : reject(error),
      );
      socket.on('close', () => resolve(text));
      socket.write(raw);
    });
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    const contentType = /content-type: ([^\r]+)/i.exec(head)?.[1];
    return { status: Number(head.split(' ')[1]), body, ...(contentType ? { contentType } : {}) };
  }

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('answers headers over the limit with 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const res = await rawExchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({
      code: 'HEADERS_TOO_LARGE',
      message: 'request headers are larger than the server accepts',
    });
  });

  it.each([
    ['a request line that is not HTTP', 'NOT HTTP AT ALL\r\n\r\n'],
    ['a NUL in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
    ['a bad chunked body', 'POST /api/probe/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
  ])('answers %s with 400 MALFORMED_REQUEST in the envelope', async (_why, raw) => {
    const res = await rawExchange(raw);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ code: 'MALFORMED_REQUEST', message: 'request is not well-formed HTTP' });
  });
});
