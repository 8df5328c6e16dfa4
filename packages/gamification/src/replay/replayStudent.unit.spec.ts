import { describe, expect, it } from 'vitest';
import type { MasteryEventSourceKind } from '../codes';
import { BADGE_AWARDED, BADGE_RESCINDED, MASTERY_EVENT_RECORDED } from '../events';
import { compareLedger } from './compare';
import { replayStudent, type StreamEvent } from './replayStudent';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 8, minute));
const mastery = (
  id: string,
  minute: number,
  sourceKind: MasteryEventSourceKind,
  sessionId = 's1',
  ruleVersion = 1,
): StreamEvent => ({
  type: MASTERY_EVENT_RECORDED,
  createdAt: at(minute),
  data: { masteryEventId: id, sourceKind, schoolDay: '2026-11-01', sessionId, ruleVersion },
});
const award = (studentBadgeId: number, trigger: string, code: string): StreamEvent => ({
  type: BADGE_AWARDED,
  createdAt: at(0),
  data: { studentBadgeId, triggeringMasteryEventId: trigger, code },
});
const rescind = (studentBadgeId: number, minute: number): StreamEvent => ({
  type: BADGE_RESCINDED,
  createdAt: at(minute),
  data: { studentBadgeId },
});

const streams = {
  mastery: [
    mastery('m1', 1, 'band_progression'),
    mastery('m2', 2, 'band_progression'),
    mastery('m3', 3, 'band_progression'),
  ],
  badgeAwards: [award(1, 'm1', 'first_step'), award(2, 'm2', 'band_riser')],
  badgeRescinds: [rescind(2, 4)],
};

describe('replayStudent', () => {
  it('re-decides XP and badges with the pinned rule version, and applies rescinds', () => {
    expect(replayStudent(streams, at(10)).keys).toEqual({
      xpBalance: 25 + 15 + 25 + 15 + 25 - 15,
      badgeCodes: ['first_step'],
      avatarTier: 1,
    });
  });

  it('stops at asOf: later mastery events and rescinds do not count', () => {
    expect(replayStudent(streams, at(2)).keys).toEqual({
      xpBalance: 80,
      badgeCodes: ['band_riser', 'first_step'],
      avatarTier: 1,
    });
    expect(replayStudent(streams, at(0)).keys).toEqual({ xpBalance: 0, badgeCodes: [], avatarTier: 1 });
  });

  it('counts a repeated event id once and ignores a rescind of a badge the rules never gave', () => {
    const folded = replayStudent(
      {
        ...streams,
        mastery: [...streams.mastery, mastery('m3', 5, 'band_progression')],
        badgeRescinds: [rescind(9, 4)],
      },
      at(10),
    );
    expect(folded.state.masteryCount).toBe(3);
    expect(folded.keys.xpBalance).toBe(25 + 15 + 25 + 15 + 25);
  });

  it('caps a session with the rule set, so a badge beyond the cap reverses nothing', () => {
    const capped = [1, 2, 3, 4].map((i) => mastery(`c${i}`, i, 'bundle_completion', 'cap'));
    const folded = replayStudent(
      {
        mastery: [...capped, mastery('c5', 5, 'band_progression', 'cap')],
        badgeAwards: [award(7, 'c5', 'band_riser')],
        badgeRescinds: [rescind(7, 6)],
      },
      at(10),
    );
    expect(folded.badges.get('c5')).toEqual({ code: 'band_riser', bonus: 0 });
    expect(folded.keys.xpBalance).toBe(200);
  });

  it('pays and takes back the bonus of a badge past the cap for events that pinned rule set v2', () => {
    const capped = [1, 2, 3, 4].map((i) => mastery(`c${i}`, i, 'bundle_completion', 'cap', 2));
    const streamsV2 = {
      mastery: [...capped, mastery('c5', 5, 'band_progression', 'cap', 2)],
      badgeAwards: [award(7, 'c5', 'band_riser')],
      badgeRescinds: [rescind(7, 6)],
    };
    const folded = replayStudent(streamsV2, at(5));
    expect(folded.badges.get('c5')).toEqual({ code: 'band_riser', bonus: 15 });
    expect(folded.keys.xpBalance).toBe(215);
    expect(replayStudent(streamsV2, at(10)).keys.xpBalance).toBe(200);
  });
});

describe('compareLedger', () => {
  it('flags each key on its own', () => {
    const a = { xpBalance: 10, badgeCodes: ['a', 'b'], avatarTier: 1 };
    expect(compareLedger(a, { ...a })).toEqual({
      drift: { xpBalance: false, badges: false, avatarTier: false },
      hasDrift: false,
    });
    expect(compareLedger(a, { ...a, badgeCodes: ['a'] }).drift).toEqual({
      xpBalance: false,
      badges: true,
      avatarTier: false,
    });
    expect(compareLedger(a, { ...a, avatarTier: 2 })).toMatchObject({ drift: { avatarTier: true }, hasDrift: true });
  });
});
