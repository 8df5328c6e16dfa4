import { describe, expect, it } from 'vitest';
import { databaseApiError } from './databaseErrors';

const driverError = (code: string) => Object.assign(new Error(`write ${code} 127.0.0.1:5432`), { code });
const serverError = (code: string) => Object.assign(new Error('server says no'), { name: 'PostgresError', code });

describe('databaseApiError: an unreachable database is 503 DATABASE_UNAVAILABLE with Retry-After', () => {
  it.each([
    'CONNECTION_CLOSED',
    'CONNECTION_ENDED',
    'CONNECTION_DESTROYED',
    'CONNECT_TIMEOUT',
    'POOL_WAIT_TIMEOUT',
    'ECONNREFUSED',
    'ECONNRESET',
  ])('driver %s', (code) => {
    const answer = databaseApiError(driverError(code));
    expect(answer?.status).toBe(503);
    expect(answer?.toBody()).toMatchObject({ code: 'DATABASE_UNAVAILABLE', retryAfter: 2 });
  });

  it.each(['57P01', '57P02', '57P03', '08006', '08001', '53300'])('server %s', (sqlstate) => {
    expect(databaseApiError(serverError(sqlstate))?.status).toBe(503);
  });

  it('as the cause of a wrapping error', () => {
    const wrapped = new Error('append failed', { cause: driverError('CONNECTION_CLOSED') });
    expect(databaseApiError(wrapped)?.code).toBe('DATABASE_UNAVAILABLE');
  });

  it('leaves the request-caused and the unknown as they were', () => {
    expect(databaseApiError(serverError('23505'))?.status).toBe(409);
    expect(databaseApiError(serverError('42P01'))).toBeUndefined();
    expect(databaseApiError(new Error('plain'))).toBeUndefined();
  });
});
