import { describe, expect, it } from 'vitest';
import { describeDatabaseUrl, isDatabaseUrl, withoutCredentials } from './databaseUrl';

describe('database URLs in messages', () => {
  it('describes where a URL points without its password', () => {
    expect(describeDatabaseUrl('postgres://qiraa:hunter2@db.internal:6432/app?sslmode=require')).toBe(
      'qiraa@db.internal:6432/app',
    );
    expect(describeDatabaseUrl('postgres://qiraa:hunter2@a:5433,b:5434/app')).toBe('qiraa@a:5433,b:5434/app');
  });

  it('accepts what postgres.js connects with, and only postgres:// or postgresql://', () => {
    expect(isDatabaseUrl('postgresql://qiraa:p%40ss@db/app')).toBe(true);
    expect(isDatabaseUrl('postgres://qiraa:p#ss@db:5432/app')).toBe(false);
    expect(isDatabaseUrl('redis://db:6379')).toBe(false);
    expect(isDatabaseUrl('db.internal')).toBe(false);
  });

  it('strips credentials from any URL inside a message', () => {
    expect(withoutCredentials('no route to postgres://qiraa:hunter2@db/app or redis://:s3cret@r:6379')).toBe(
      'no route to postgres://qiraa:***@db/app or redis://:***@r:6379',
    );
  });
});
