import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Issue 24: the refusals the spec does not name are listed with their status in docs/api.md and in the OpenAPI
 * responses of each route (the description of that status names the reason). The committed openapi.json is the
 * generated one (operations.int.spec.ts fails otherwise), so reading it here checks the route schemas.
 */
const REFUSALS: { status: number; reason: string; routes: string[] }[] = [
  {
    status: 409,
    reason: 'no_open_window',
    routes: [
      'post /api/diagnostic-sessions/start',
      'post /api/diagnostic-sessions/start/re-diagnostic',
      'post /api/orf/assessments',
      'post /api/word-lists/assessments',
    ],
  },
  { status: 422, reason: 'grade_mismatch', routes: ['post /api/sessions/from-blueprint'] },
  {
    status: 409,
    reason: 'delivery_mode_mismatch',
    routes: [
      'post /api/sessions/{id}/distribute-online',
      'post /api/sessions/{id}/generate-pdfs',
      'post /api/sessions/{id}/deliver-mixed',
    ],
  },
  {
    status: 409,
    reason: 'not_previewed',
    routes: [
      'post /api/sessions/{id}/distribute-online',
      'post /api/sessions/{id}/generate-pdfs',
      'post /api/sessions/{id}/deliver-mixed',
      'post /api/sessions/{id}/recipients/{studentId}/include',
    ],
  },
  { status: 422, reason: 'members_span_classes', routes: ['post /api/cluster/bulk-activate'] },
  { status: 428, reason: 'if_match_required', routes: ['patch /api/items/{id}'] },
];

const root = new URL('../../../../', import.meta.url);
const openapi = JSON.parse(readFileSync(new URL('docs/openapi.json', root), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
};
const apiDoc = readFileSync(new URL('docs/api.md', root), 'utf8');

describe('refusals the spec does not name', () => {
  for (const { status, reason, routes } of REFUSALS) {
    it(`${status} ${reason}: named in docs/api.md and in the OpenAPI responses of its routes`, () => {
      const row = apiDoc.split('\n').find((line) => line.startsWith(`| ${status} `) && line.includes(`\`${reason}\``));
      expect(row, `docs/api.md row for ${status} ${reason}`).toBeDefined();
      for (const route of routes) {
        const [method, path] = route.split(' ') as [string, string];
        expect(row, `docs/api.md names ${route}`).toContain(path.replace('post ', ''));
        const described = openapi.paths[path]?.[method]?.responses[String(status)]?.description ?? '';
        expect(described, `${route} ${status}`).toMatch(new RegExp(`reason: .*\\b${reason}\\b`));
      }
    });
  }

  it('lists every open limit in docs/api.md', () => {
    for (const phrase of ['client log lines', 'training sends', 'quick-code sign-in failures', 'home-login failures']) {
      expect(apiDoc).toContain(phrase);
    }
    expect(apiDoc).toContain('`GET /api/training/alerts`');
  });
});
