-- A hash chain per user over the log (issue 14): every event of a user-owned stream gets the
-- next number in its owner's chain and hash = sha256(previous hash | the event as stored). An
-- event edited, removed or slipped in afterwards no longer matches (kosh_chain_verify finds the
-- first such link), and a chain rewritten to hide it no longer matches the chain heads that
-- earlier signed exports carry. Kept by a statement trigger, so every append path (lone,
-- batched, inside a caller's transaction, the migration CLI) chains alike.

-- The owner: the acting user, else the user the data names (registration is anonymous), else
-- the owner of a catalog entry; only for user-owned streams (not e-mail reservations, not the
-- seeded catalog). projections/src/history/projector.ts `ownerOf` is the same rule; a test
-- holds them together.
CREATE FUNCTION kosh_event_owner(p_stream_id text, p_data jsonb, p_metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN p_stream_id ~ '^(user|loan|txn|bank|loantype)-'
    THEN coalesce(p_metadata->>'userId', p_data->>'userId', p_data->>'ownerUserId') END
$$;

CREATE FUNCTION kosh_chain_hash(p_prev text, p_event_id text, p_stream_id text, p_stream_version integer,
  p_type text, p_data jsonb, p_metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT encode(sha256(convert_to(concat_ws('|', p_prev, p_event_id, p_stream_id, p_stream_version::text, p_type,
    p_data::text, p_metadata::text), 'UTF8')), 'hex')
$$;

CREATE TABLE event_chain_heads (
  user_id text PRIMARY KEY,
  seq bigint NOT NULL,
  hash text NOT NULL
);

CREATE TABLE event_chain (
  global_position bigint PRIMARY KEY,
  user_id text NOT NULL,
  seq bigint NOT NULL,
  hash text NOT NULL,
  CONSTRAINT event_chain_user_seq_key UNIQUE (user_id, seq)
);

-- Adds one event to its owner's chain (the owner's head row must be locked by the caller).
CREATE FUNCTION kosh_chain_link(p_owner text, p_global_position bigint, p_event_id text, p_stream_id text,
  p_stream_version integer, p_type text, p_data jsonb, p_metadata jsonb) RETURNS void
LANGUAGE sql
AS $$
  WITH head AS (
    UPDATE event_chain_heads h
       SET seq = h.seq + 1,
           hash = kosh_chain_hash(h.hash, p_event_id, p_stream_id, p_stream_version, p_type, p_data, p_metadata)
     WHERE h.user_id = p_owner
     RETURNING h.seq, h.hash
  )
  INSERT INTO event_chain (global_position, user_id, seq, hash)
  SELECT p_global_position, p_owner, head.seq, head.hash FROM head
$$;

-- Appends the statement's new events to their owners' chains, in log order. Owners' heads are
-- locked in user order, so two appends touching the same users cannot deadlock.
CREATE FUNCTION kosh_chain_events() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  r record;
BEGIN
  INSERT INTO event_chain_heads (user_id, seq, hash)
  SELECT DISTINCT kosh_event_owner(n.stream_id, n.data, n.metadata), 0, repeat('0', 64)
    FROM new_events n
   WHERE kosh_event_owner(n.stream_id, n.data, n.metadata) IS NOT NULL
   ORDER BY 1
  ON CONFLICT (user_id) DO NOTHING;
  PERFORM 1 FROM event_chain_heads h
    WHERE h.user_id IN (SELECT kosh_event_owner(n.stream_id, n.data, n.metadata) FROM new_events n)
    ORDER BY h.user_id FOR UPDATE;
  FOR r IN
    SELECT n.global_position, n.event_id, n.stream_id, n.stream_version, n.type, n.data, n.metadata,
           kosh_event_owner(n.stream_id, n.data, n.metadata) AS owner
      FROM new_events n
     WHERE kosh_event_owner(n.stream_id, n.data, n.metadata) IS NOT NULL
     ORDER BY n.global_position
  LOOP
    PERFORM kosh_chain_link(r.owner, r.global_position, r.event_id, r.stream_id, r.stream_version, r.type, r.data,
      r.metadata);
  END LOOP;
  RETURN NULL;
END
$$;

CREATE TRIGGER events_user_chain AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION kosh_chain_events();

-- The log as it stood before this migration, chained in log order.
WITH owned AS (
  SELECT e.*, kosh_event_owner(e.stream_id, e.data, e.metadata) AS owner FROM events e
)
INSERT INTO event_chain_heads (user_id, seq, hash)
SELECT DISTINCT owner, 0, repeat('0', 64) FROM owned WHERE owner IS NOT NULL;

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT e.global_position, e.event_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata,
           kosh_event_owner(e.stream_id, e.data, e.metadata) AS owner
      FROM events e
     WHERE kosh_event_owner(e.stream_id, e.data, e.metadata) IS NOT NULL
     ORDER BY e.global_position
  LOOP
    PERFORM kosh_chain_link(r.owner, r.global_position, r.event_id, r.stream_id, r.stream_version, r.type, r.data,
      r.metadata);
  END LOOP;
END
$$;

-- The first link of the user's chain that no longer matches the log (an event edited or
-- removed, a link edited), or NULL when the whole chain holds.
CREATE FUNCTION kosh_chain_verify(p_user_id text) RETURNS bigint
LANGUAGE plpgsql STABLE
AS $$
DECLARE
  r record;
  v_prev text := repeat('0', 64);
  v_expected bigint := 0;
BEGIN
  FOR r IN
    SELECT c.seq, c.hash, e.event_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata,
           kosh_event_owner(e.stream_id, e.data, e.metadata) AS owner
      FROM event_chain c LEFT JOIN events e ON e.global_position = c.global_position
     WHERE c.user_id = p_user_id
     ORDER BY c.seq
  LOOP
    v_expected := v_expected + 1;
    IF r.seq <> v_expected OR r.event_id IS NULL OR r.owner IS DISTINCT FROM p_user_id
       OR r.hash <> kosh_chain_hash(v_prev, r.event_id, r.stream_id, r.stream_version, r.type, r.data, r.metadata) THEN
      RETURN v_expected;
    END IF;
    v_prev := r.hash;
  END LOOP;
  -- An event of the user's that is not in the chain (slipped in past the trigger).
  IF EXISTS (SELECT 1 FROM events e LEFT JOIN event_chain c ON c.global_position = e.global_position
              WHERE c.global_position IS NULL AND kosh_event_owner(e.stream_id, e.data, e.metadata) = p_user_id) THEN
    RETURN v_expected + 1;
  END IF;
  RETURN NULL;
END
$$;
