-- The user's own events, for the timeline (GET /api/history), as-of answers and the export.
-- One row per event of a user-owned stream (profile, loans, transactions, the user's own banks
-- and loan types), in the log's global order. Secrets (password hashes, token hashes, sealed
-- tokens) are removed before the row is written: they never reach this table.
CREATE TABLE history_events (
  -- The log's global position token (sorts as text in global order); the timeline's cursor.
  position text PRIMARY KEY,
  user_id text NOT NULL,
  event_id text NOT NULL UNIQUE,
  stream_id text NOT NULL,
  stream_version integer NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  -- metadata.recordedAt: when the command was handled (the instant as-of answers cut at).
  recorded_at timestamptz NOT NULL
);

CREATE INDEX history_events_user_idx ON history_events (user_id, position);
CREATE INDEX history_events_stream_idx ON history_events (user_id, stream_id, position);
CREATE INDEX history_events_user_type_idx ON history_events (user_id, type, position);
CREATE INDEX history_events_user_time_idx ON history_events (user_id, recorded_at, position);
