import { describe, expect, it } from 'vitest';
import { deterministicEventId, randomEventId } from './eventId';
import { decodeCheckpoint, encodeCheckpoint } from './postgres/checkpoint';
import { streamCategory } from './types';

describe('event ids', () => {
  it('derives the same uuid from the same name parts, and different ones otherwise', () => {
    const a = deterministicEventId('mastery', 'engine-1', 42);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicEventId('mastery', 'engine-1', 42)).toBe(a);
    expect(deterministicEventId('mastery', 'engine-14', 2)).not.toBe(a);
    expect(randomEventId()).not.toBe(randomEventId());
  });
});

describe('PostgreSQL checkpoints', () => {
  it('round-trips and starts at the beginning for null', () => {
    const cp = encodeCheckpoint({ transactionId: '812', globalPosition: 9007199254740993n });
    expect(cp).toBe('812:9007199254740993');
    expect(decodeCheckpoint(cp)).toEqual({ transactionId: '812', globalPosition: 9007199254740993n });
    expect(decodeCheckpoint(null)).toEqual({ transactionId: '0', globalPosition: 0n });
    expect(() => decodeCheckpoint('12345')).toThrow(/not a PostgreSQL event-store checkpoint/);
  });
});

describe('streamCategory', () => {
  it('is the part before the first dash', () => {
    expect(streamCategory('audit-org_1-x')).toBe('audit');
    expect(streamCategory('plain')).toBe('plain');
  });
});
