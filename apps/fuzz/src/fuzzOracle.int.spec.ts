import { TEST_JWT_SECRET, useTestWorld } from '@qiraa/app/testing';
import { defineContext } from '@qiraa/kernel';
import { describe, expect, it } from 'vitest';
import { fuzzWorld } from './fuzzWorld';
import { type Operation, operationsOf } from './openapi';
import { runFuzz } from './run';

/** Routes broken on purpose, one per property, to show the fuzzer catches each kind of failure. */
const foreign = { classId: '' };
const broken = defineContext({
  name: 'broken',
  projections: [],
  routes: () => async (app) => {
    app.get<{ Params: { name: string } }>('/broken/names/:name', { config: { public: true } }, async (request) => {
      // Like a driver refusing odd bytes: anything beyond plain letters and digits is a 500.
      if (!/^[A-Za-z0-9]*$/.test(request.params.name)) throw new Error('invalid byte sequence for encoding "UTF8"');
      return { ok: true };
    });
    app.post('/broken/plain', { config: { public: true } }, async (_request, reply) =>
      reply.code(400).type('text/plain').send('bad request'),
    );
    app.get<{ Params: { classId: string } }>(
      '/broken/classes/:classId',
      { config: { public: true } },
      async (request, reply) =>
        request.params.classId === foreign.classId
          ? reply.code(403).send({ code: 'PERMISSION_DENIED', message: 'not yours' })
          : reply.code(404).send({ code: 'NOT_FOUND', message: 'no such class' }),
    );
    app.get('/broken/open', { config: { public: true } }, async () => ({ secret: 42 }));
  },
});

const doc = {
  paths: {
    '/api/broken/names/{name}': {
      get: { parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', maxLength: 20 } }] },
    },
    '/api/broken/plain': {
      post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: {} } } } } },
    },
    '/api/broken/classes/{classId}': {
      get: {
        security: [{ bearerAuth: [] }],
        parameters: [
          { name: 'classId', in: 'path', required: true, schema: { type: 'string', pattern: '^cls_[A-Za-z0-9]{12}$' } },
        ],
      },
    },
    '/api/broken/open': { get: { security: [{ bearerAuth: [] }] } },
  },
};

const { t, w } = useTestWorld({ extraContexts: [broken] });

describe('the fuzzer', () => {
  it('reports a 5xx, a missing envelope, a tenant leak and an accepted bad token, each with a repro line', async () => {
    foreign.classId = w.b.classId;
    const operations: Operation[] = operationsOf(doc);
    const report = await runFuzz({
      app: t.app,
      world: fuzzWorld(w, TEST_JWT_SECRET),
      operations,
      seed: 7,
      cases: 40,
    });
    const problems = new Set(
      report.distinct.map((g) => g.key.replace(/\d{3}/g, 'NNN').replace(/ \| [^|]+ \| /, ' | ')),
    );
    expect([...problems]).toEqual(
      expect.arrayContaining([
        'GET /api/broken/names/{name} | status NNN (no 5xx)',
        'POST /api/broken/plain | NNN without the ApiError envelope: body is not JSON ("bad request")',
        "GET /api/broken/classes/{classId} | tenant: NNN for organization B's path:classId (want NNN)",
        'GET /api/broken/open | bad token accepted: NNN',
      ]),
    );
    const line = report.distinct.find((g) => g.key.startsWith('GET /api/broken/names'))?.first.line ?? '';
    expect(line).toMatch(/^FUZZ seed=7 route="GET \/api\/broken\/names\/\{name\}" case=\d+ /);
    expect(line).toContain("npm run fuzz -- --seed 7 --route 'GET /api/broken/names/{name}' --case ");
    expect(line).toContain(" | curl -X GET $'http://localhost:3000/api/broken/names/");
  }, 120_000);
});
