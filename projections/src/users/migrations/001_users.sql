-- Users read model: the profile as the API shows it, plus the lookups that sign-in flows need.
-- E-mail uniqueness is NOT enforced here: it comes from the email-{sha256} reservation streams.
CREATE TABLE users (
  user_id text PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  email_verified boolean NOT NULL DEFAULT false,
  profile_picture text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- SHA-256 (hex) of the outstanding verification / reset token; the raw token is never stored.
  verification_token_hash text,
  reset_token_hash text,
  -- Access tokens issued before this instant are rejected (last password change or reset).
  tokens_valid_after timestamptz,
  -- Stream version of the last applied event: makes a redelivered event a no-op.
  version integer NOT NULL
);

CREATE INDEX users_email ON users (email);
CREATE UNIQUE INDEX users_verification_token_hash ON users (verification_token_hash)
  WHERE verification_token_hash IS NOT NULL;
CREATE UNIQUE INDEX users_reset_token_hash ON users (reset_token_hash) WHERE reset_token_hash IS NOT NULL;
