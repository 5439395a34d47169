-- When each session was last seen (issue 32). Written by the API at most once a minute per
-- session, not an event (it would flood the log); never rebuilt: a rebuild of `sessions` leaves it.
CREATE TABLE session_activity (
  session_id text PRIMARY KEY,
  last_seen_at timestamptz NOT NULL
);
