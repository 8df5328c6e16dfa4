import { buildApp } from '@qiraa/app';
import { type Client, client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it, vi } from 'vitest';
import { CLIENT_LOG_BODY_LIMIT, CLIENT_LOG_RATE } from './clientLogRoutes';

const { t, w } = useTestWorld();
const as = (token: string): Client => client(t.app, token);
const URL = '/api/logs/client';
const valid = { level: 'warn', event: 'reader.audio.play_failed', route: '/reader/12', context: { attempt: 2 } };

type Line = [level: string, ...args: unknown[]];

/** Every line written through request loggers while `work` runs (the test app's logger is silent). */
async function logLines(work: () => Promise<unknown>): Promise<Line[]> {
  const lines: Line[] = [];
  const log = t.app.log as unknown as { child(...args: unknown[]): Record<string, unknown> };
  const original = log.child;
  const spy = vi.spyOn(log, 'child').mockImplementation(function (this: unknown, ...args: unknown[]) {
    const child = original.apply(this, args);
    for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) {
      child[level] = (...logged: unknown[]) => lines.push([level, ...logged]);
    }
    return child;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

const exhaust = async (c: Client) => {
  for (let i = 0; i < CLIENT_LOG_RATE.max; i++) {
    const res = await c.post(URL, { level: 'debug', event: 'probe.fill' });
    expect(res.statusCode, `request ${i + 1}`).toBe(202);
  }
};

describe('POST /api/logs/client', () => {
  it('accepts a bounded body with 202 { accepted: true }', async () => {
    const res = await as(w.a.teacherToken).post(URL, valid);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: true });
  });

  it("writes one structured line at the client's level with the caller's id", async () => {
    const lines = await logLines(() => as(w.a.teacherToken).post(URL, valid));
    const clientLines = lines.filter(([, fields]) => (fields as { source?: string })?.source === 'client');
    expect(clientLines).toEqual([
      [
        'warn',
        {
          source: 'client',
          userId: w.a.teacherId,
          organizationId: w.a.id,
          event: 'reader.audio.play_failed',
          clientRoute: '/reader/12',
          context: { attempt: 2 },
        },
        'client reader.audio.play_failed',
      ],
    ]);
  });

  it('needs a bearer token (401 TOKEN_MISSING)', async () => {
    const res = await client(t.app).post(URL, valid);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_MISSING');
  });

  it('takes only the four levels (422 on another)', async () => {
    const res = await as(w.a.teacherToken).post(URL, { ...valid, level: 'critical' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'level', issue: expect.any(String) }]);
  });

  it('takes an event code, not free text (422)', async () => {
    for (const event of ['Reader failed to play audio!', 'x', 'Reader.Audio', `a${'b'.repeat(64)}`]) {
      const res = await as(w.a.teacherToken).post(URL, { ...valid, event });
      expect(res.statusCode, event).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['event']);
    }
  });

  it('bounds the route to 200 characters (422)', async () => {
    const res = await as(w.a.teacherToken).post(URL, { ...valid, route: `/${'r'.repeat(200)}` });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['route']);
  });

  it('bounds context to 10 flat values: strings of at most 200 characters, numbers, booleans (422)', async () => {
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i]));
    const bad = [eleven, { nested: { a: 1 } }, { list: [1] }, { empty: null }, { long: 's'.repeat(201) }];
    for (const context of bad) {
      const res = await as(w.a.otherTeacherToken).post(URL, { ...valid, context });
      expect(res.statusCode, JSON.stringify(context).slice(0, 60)).toBe(422);
    }
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i % 2 ? 's' : true]));
    expect((await as(w.a.otherTeacherToken).post(URL, { ...valid, context: ten })).statusCode).toBe(202);
  });

  it('refuses a body over 8 KiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const payload = JSON.stringify({ ...valid, route: 'r'.repeat(CLIENT_LOG_BODY_LIMIT) });
    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      payload,
      headers: { authorization: `Bearer ${w.b.teacherToken}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers the request after 60 in a minute with 429 RATE_LIMITED, retryAfter and Retry-After', async () => {
    const manager = as(w.a.managerToken);
    await exhaust(manager);
    const res = await manager.post(URL, valid);
    expect(res.statusCode).toBe(429);
    const body = res.json();
    expect(body).toEqual({ code: 'RATE_LIMITED', message: expect.any(String), retryAfter: expect.any(Number) });
    expect(body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.retryAfter).toBeLessThanOrEqual(CLIENT_LOG_RATE.windowMs / 1000);
    expect(res.headers['retry-after']).toBe(String(body.retryAfter));
  });

  it('holds the limit across API processes: two apps on one database share the 60', async () => {
    // A second app on the same runtime stands for a second process: before issue 24 each counted its own 60.
    const second = await buildApp(t.runtime, { logLevel: 'silent' });
    await second.ready();
    try {
      const token = w.a.principalToken;
      const post = (app: typeof t.app) =>
        app.inject({
          method: 'POST',
          url: URL,
          payload: { level: 'debug', event: 'probe.fill' },
          headers: { authorization: `Bearer ${token}` },
        });
      // Real parallel requests, half on each app.
      const answers = await Promise.all(
        Array.from({ length: CLIENT_LOG_RATE.max + 20 }, (_, i) => post(i % 2 ? second : t.app)),
      );
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 202).length).toBe(CLIENT_LOG_RATE.max);
      expect(codes.filter((c) => c === 429).length).toBe(20);
    } finally {
      await second.close();
    }
  }, 180_000);

  it('limits each user separately: one user at the limit does not stop another', async () => {
    await exhaust(as(w.b.managerToken));
    expect((await as(w.b.managerToken).post(URL, valid)).statusCode).toBe(429);
    expect((await as(w.b.principalToken).post(URL, valid)).statusCode).toBe(202);
  });
});
