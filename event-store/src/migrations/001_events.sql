-- Event store schema (DESIGN.md "Event store rules"). Runs unchanged on PostgreSQL 15+ and PGlite.

CREATE TABLE events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id text NOT NULL,
  stream_id text NOT NULL,
  stream_version integer NOT NULL CHECK (stream_version > 0),
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT events_event_id_key UNIQUE (event_id),
  CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version)
);

-- Readers page and checkpoint by (transaction_id, global_position): keep every read a range scan.
CREATE INDEX events_transaction_position_idx ON events (transaction_id, global_position);

-- Position token: zero-padded 'xid:position', so tokens sort as strings in global order.
CREATE FUNCTION kosh_position(xid xid8, pos bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT lpad(xid::text, 20, '0') || ':' || lpad(pos::text, 20, '0') $$;

-- Appends a batch to one stream in one statement (one round trip).
-- p_expected: >= 0 exact version, -1 no stream, -2 any.
-- Event ids already stored are skipped; when every id is already stored this is a no-op that
-- returns the original result (version and position of the last of those events).
-- A version mismatch raises SQLSTATE 'KC001' with the current version in DETAIL.
-- Appends to one stream are serialised by a transaction-scoped advisory lock on the stream.
-- Commits NOTIFY 'kosh_events' with the position of the last event.
CREATE FUNCTION kosh_append_events(
  p_stream_id text,
  p_expected integer,
  p_ids text[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (next_version integer, last_position text, appended integer)
LANGUAGE plpgsql
AS $$
DECLARE
  v_existing integer;
  v_current integer;
  v_version integer;
  v_position text;
  v_count integer;
BEGIN
  PERFORM pg_advisory_xact_lock(1265594216, hashtext(p_stream_id));

  SELECT count(*) INTO v_existing FROM events WHERE event_id = ANY (p_ids);
  IF v_existing > 0 AND v_existing = cardinality(p_ids) THEN
    RETURN QUERY
      SELECT e.stream_version, kosh_position(e.transaction_id, e.global_position), 0
      FROM events e
      WHERE e.event_id = ANY (p_ids)
      ORDER BY e.transaction_id DESC, e.global_position DESC
      LIMIT 1;
    RETURN;
  END IF;

  SELECT coalesce(max(e.stream_version), 0) INTO v_current FROM events e WHERE e.stream_id = p_stream_id;
  IF (p_expected = -1 AND v_current <> 0) OR (p_expected >= 0 AND v_current <> p_expected) THEN
    RAISE EXCEPTION 'Stream % is at version %, expected %', p_stream_id, v_current, p_expected
      USING ERRCODE = 'KC001', DETAIL = v_current::text;
  END IF;

  WITH input AS (
    SELECT t.id, t.type, t.data, t.metadata, t.ord
    FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS t(id, type, data, metadata, ord)
    WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.event_id = t.id)
  ),
  numbered AS (
    SELECT i.*, row_number() OVER (ORDER BY i.ord) AS n FROM input i
  ),
  ins AS (
    INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata)
    SELECT id, p_stream_id, v_current + n::integer, type, data, metadata FROM numbered ORDER BY n
    RETURNING stream_version, transaction_id, global_position
  )
  SELECT i.stream_version, kosh_position(i.transaction_id, i.global_position), (SELECT count(*) FROM ins)
  INTO v_version, v_position, v_count
  FROM ins i
  ORDER BY i.global_position DESC
  LIMIT 1;

  PERFORM pg_notify('kosh_events', v_position);
  RETURN QUERY SELECT v_version, v_position, v_count;
END
$$;
