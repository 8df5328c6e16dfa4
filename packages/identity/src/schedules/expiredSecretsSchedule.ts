import { defineSchedule } from '@qiraa/kernel';

/**
 * Single-use secrets expire where they are used (the redeem compares `expires_at` with the injected clock); this
 * removes the expired rows every hour, consumed or not, so the tables hold only what can still be redeemed.
 */
export const expiredSecretsSchedule = defineSchedule({
  name: 'identity.expired-secrets',
  cadence: 'hourly',
  description: 'expired handoff codes, passkey challenges and OpenID Connect states are removed',
  async run(deps, tick) {
    const at = tick.dueAt;
    const [handoff, challenges, oidc] = await Promise.all([
      deps.sql`delete from auth_handoff_codes where expires_at <= ${at}`,
      deps.sql`delete from auth_webauthn_challenges where expires_at <= ${at}`,
      deps.sql`delete from auth_oidc_states where expires_at <= ${at}`,
    ]);
    return { handoffCodes: handoff.count, passkeyChallenges: challenges.count, oidcStates: oidc.count };
  },
});
