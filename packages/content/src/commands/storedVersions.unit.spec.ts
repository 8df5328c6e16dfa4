import { describe, expect, it } from 'vitest';
import { decideVersion } from './storedVersions';

const newest = (status: string, contentHash = 'h1') => ({ id: 'x1', version: 3, status, contentHash });

describe('decideVersion', () => {
  it('makes version 1 of a new external id', () => {
    expect(decideVersion(undefined, 'h1')).toEqual({ kind: 'new', version: 1 });
  });
  it('is unchanged when the newest version holds the same content, whatever its status', () => {
    expect(decideVersion({ newest: newest('operational'), maxVersion: 3 }, 'h1')).toEqual({
      kind: 'unchanged',
      id: 'x1',
    });
    expect(decideVersion({ newest: newest('draft'), maxVersion: 3 }, 'h1')).toEqual({ kind: 'unchanged', id: 'x1' });
  });
  it('numbers a change after the highest version, declined ones included', () => {
    expect(decideVersion({ newest: newest('operational'), maxVersion: 5 }, 'h2')).toEqual({ kind: 'new', version: 6 });
    expect(decideVersion({ newest: null, maxVersion: 2 }, 'h2')).toEqual({ kind: 'new', version: 3 });
  });
  it('refuses a change while the newest version waits for review', () => {
    expect(decideVersion({ newest: newest('pending_review'), maxVersion: 3 }, 'h2')).toEqual({
      kind: 'pending_version_exists',
    });
    expect(decideVersion({ newest: newest('draft'), maxVersion: 3 }, 'h2')).toEqual({ kind: 'pending_version_exists' });
  });
});
