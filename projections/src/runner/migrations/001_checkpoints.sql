-- One row per projection: how far it has applied the global log, and whether it is stopped
-- (a projector kept failing on an event; see projection_dead_letters).
CREATE TABLE projection_checkpoints (
  name text PRIMARY KEY,
  -- Global position token of the last applied event ('' = none); tokens sort as strings.
  position text NOT NULL DEFAULT '' COLLATE "C",
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'stopped')),
  error text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE projection_dead_letters (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  projection text NOT NULL,
  position text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  error text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX projection_dead_letters_projection ON projection_dead_letters (projection, at);

-- A rebuild in progress: it replays into fresh copies of the projection's tables in schema
-- rebuild_<name> and records its own position here, so a killed rebuild resumes.
CREATE TABLE projection_rebuilds (
  name text PRIMARY KEY,
  position text NOT NULL DEFAULT '' COLLATE "C",
  processed bigint NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
