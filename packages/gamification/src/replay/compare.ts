import type { LedgerKeys } from './replayStudent';

export interface LedgerDrift {
  xpBalance: boolean;
  badges: boolean;
  avatarTier: boolean;
}

/** Per key: does the read model disagree with the fold? Badge lists are compared as sorted code lists. */
export function compareLedger(derived: LedgerKeys, stored: LedgerKeys): { drift: LedgerDrift; hasDrift: boolean } {
  const drift: LedgerDrift = {
    xpBalance: derived.xpBalance !== stored.xpBalance,
    badges:
      derived.badgeCodes.length !== stored.badgeCodes.length ||
      derived.badgeCodes.some((code, i) => code !== stored.badgeCodes[i]),
    avatarTier: derived.avatarTier !== stored.avatarTier,
  };
  return { drift, hasDrift: drift.xpBalance || drift.badges || drift.avatarTier };
}

export const DRIFT_KEYS = ['xpBalance', 'badges', 'avatarTier'] as const satisfies readonly (keyof LedgerDrift)[];
