/**
 * Sign-in state: console sessions (the cookie holds only a random id; we keep its hash),
 * refresh-token families for API clients, one-time tokens (password reset, email verify) and
 * login attempts (brute-force limits and the trail of who tried what from where).
 */
export default `
CREATE TABLE auth_sessions (
  id_hash     text PRIMARY KEY,
  uid         text NOT NULL,
  orig_uid    text NOT NULL,
  facility    text,
  step        text NOT NULL,
  kiosk       boolean NOT NULL DEFAULT false,
  ip          text,
  user_agent  text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  last_seen   timestamptz NOT NULL DEFAULT now(),
  ended_at    timestamptz,
  end_reason  text
);
CREATE INDEX auth_sessions_uid ON auth_sessions (uid) WHERE ended_at IS NULL;

CREATE TABLE auth_refresh_tokens (
  id_hash     text PRIMARY KEY,
  family      text NOT NULL,
  uid         text NOT NULL,
  orig_uid    text NOT NULL,
  org         text NOT NULL,
  issued_at   timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  revoked_at  timestamptz
);
CREATE INDEX auth_refresh_tokens_family ON auth_refresh_tokens (family);

CREATE TABLE auth_one_time_tokens (
  id_hash     text PRIMARY KEY,
  uid         text NOT NULL,
  purpose     text NOT NULL CHECK (purpose IN ('reset', 'verify')),
  email       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);

CREATE TABLE auth_login_attempts (
  seq         bigserial PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  email       text NOT NULL,
  ip          text NOT NULL,
  ok          boolean NOT NULL,
  reason      text
);
CREATE INDEX auth_login_attempts_email ON auth_login_attempts (email, at);
CREATE INDEX auth_login_attempts_ip ON auth_login_attempts (ip, at);
`
