import type { ContextDeps, PasswordlessSettings } from '@qiraa/kernel';

/** The development defaults (the API on localhost:8787); production sets WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS. */
export const DEFAULT_PASSWORDLESS: PasswordlessSettings = {
  webauthn: { rpId: 'localhost', rpName: 'qiraa', origins: ['http://localhost:8787'] },
  oidcProviders: [],
};

export const passwordlessOf = (deps: ContextDeps): PasswordlessSettings => deps.passwordless ?? DEFAULT_PASSWORDLESS;
