-- Passwordless sign-in (docs/identity-passwordless.md): single-use handoff codes, WebAuthn challenges and
-- credentials (passkeys), OpenID Connect sign-in states. Every single-use secret is kept as its SHA-256 only
-- and consumed by one compare-and-set (`consumed_at is null and expires_at > now()` → now()).

create table auth_handoff_codes (
  code_hash   bytea primary key,
  -- whose session the code hands over (the issuer, or a student the issuing teacher or admin reaches)
  user_id     bigint not null references users (id),
  issued_by   bigint not null references users (id),
  expires_at  timestamptz not null,
  consumed_at timestamptz,
  created_at  timestamptz not null default now()
);
create index auth_handoff_codes_expires on auth_handoff_codes (expires_at);

create table auth_webauthn_challenges (
  challenge_hash bytea primary key,
  purpose        text not null check (purpose in ('registration', 'authentication')),
  -- the registering user; null for a sign-in (discoverable credentials: the user is not known yet)
  user_id        bigint references users (id),
  expires_at     timestamptz not null,
  consumed_at    timestamptz,
  created_at     timestamptz not null default now()
);
create index auth_webauthn_challenges_expires on auth_webauthn_challenges (expires_at);

create table auth_webauthn_credentials (
  -- the credential id, base64url as the authenticator's response carries it
  id            text primary key,
  user_id       bigint not null references users (id),
  public_key    bytea not null,
  sign_count    bigint not null check (sign_count >= 0),
  transports    text[] not null default '{}',
  device_type   text not null check (device_type in ('singleDevice', 'multiDevice')),
  backed_up     boolean not null,
  created_at    timestamptz not null default now(),
  last_used_at  timestamptz
);
create index auth_webauthn_credentials_user on auth_webauthn_credentials (user_id);

create table auth_oidc_states (
  state_hash    bytea primary key,
  provider      text not null,
  -- the PKCE verifier and nonce must be readable for the code exchange; they die with the state
  code_verifier text not null,
  nonce         text not null,
  expires_at    timestamptz not null,
  consumed_at   timestamptz,
  created_at    timestamptz not null default now()
);
create index auth_oidc_states_expires on auth_oidc_states (expires_at);
