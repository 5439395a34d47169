-- One row per (user, Idempotency-Key) of a create request. The first request claims the row
-- (status NULL while it runs) and stores its answer; a retry with the same key and request
-- replays that answer instead of running the command again. Rows older than 24 h are void.
CREATE TABLE IF NOT EXISTS idempotency_keys (
  user_id text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  headers jsonb,
  body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_created_at ON idempotency_keys (created_at);
