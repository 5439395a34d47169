-- Sessions read model (issue 32): every sign-in, from its SessionStarted until it ends. A bearer
-- token names its session; a token whose session has ended (or is not here) is refused.
CREATE TABLE sessions (
  session_id text PRIMARY KEY,
  user_id text NOT NULL,
  browser text NOT NULL,
  os text NOT NULL,
  address text NOT NULL,
  started_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at timestamptz,
  -- 'signed-out', 'ended' (from another session), 'password' (a password change or reset).
  end_reason text
);
CREATE INDEX sessions_by_user ON sessions (user_id, started_at DESC);
