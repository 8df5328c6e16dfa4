import { toApiError } from '@qiraa/http-kit';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LanguageSafetyUnavailableError } from './errors';

describe('an unavailable rule set thrown through a route', () => {
  it('maps to 503 LANGUAGE_SAFETY_UNAVAILABLE without the internal reason', () => {
    const error = new LanguageSafetyUnavailableError('rule_tables_missing', 'relation does not exist');
    const mapped = toApiError(error, { routeOptions: { config: {} } } as unknown as FastifyRequest);
    expect(mapped.status).toBe(503);
    expect(mapped.toBody()).toEqual({
      code: 'LANGUAGE_SAFETY_UNAVAILABLE',
      message: expect.not.stringContaining('relation'),
    });
  });

  it('leaves other errors to the generic 500', () => {
    const mapped = toApiError(new Error('boom'), { routeOptions: { config: {} } } as unknown as FastifyRequest);
    expect(mapped.status).toBe(500);
  });
});
