import { ApiError } from '@qiraa/http-kit';
import { defineContext } from '@qiraa/kernel';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/useTestWorld';

/** Routes that exist only in this spec, to drive every branch of the error mapper through real HTTP. */
const probe = defineContext({
  name: 'probe',
  projections: [],
  routes: () => async (app) => {
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
});
