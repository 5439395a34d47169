-- Appends without raising, one stream (kosh_append_one) or many in one transaction
-- (kosh_append_many), so that a store can commit the appends of concurrent callers together:
-- one commit (one WAL flush) for many appends. Each append keeps its own expected-version
-- check, idempotency and result; a conflict is reported in conflict_version, not raised, so the
-- other appends of the batch still commit.
-- (kosh_append_events of 002 stays for processes still running older code; nothing new calls it.)

-- p_expected: >= 0 exact version, -1 no stream, -2 any.
-- Event ids already stored are skipped; when every id is already stored this is a no-op that
-- returns the original result (version and position of the last of those events).
-- On a version mismatch nothing is written and conflict_version is the stream's version.
-- Appends to one stream are serialised by a transaction-scoped advisory lock on the stream.
CREATE FUNCTION kosh_append_one(
  p_stream_id text,
  p_expected integer,
  p_ids text[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[],
  OUT next_version integer,
  OUT last_position text,
  OUT appended integer,
  OUT conflict_version integer
)
LANGUAGE plpgsql
AS $$
DECLARE
  v_existing integer;
  v_current integer;
BEGIN
  PERFORM pg_advisory_xact_lock(1265594216, hashtext(p_stream_id));

  SELECT coalesce((SELECT max(e.stream_version) FROM events e WHERE e.stream_id = p_stream_id), 0),
         (SELECT count(*) FROM events e WHERE e.event_id = ANY (p_ids))
    INTO v_current, v_existing;

  IF v_existing > 0 AND v_existing = cardinality(p_ids) THEN
    SELECT e.stream_version, kosh_position(e.transaction_id, e.global_position), 0
      INTO next_version, last_position, appended
      FROM events e
      WHERE e.event_id = ANY (p_ids)
      ORDER BY e.transaction_id DESC, e.global_position DESC
      LIMIT 1;
    RETURN;
  END IF;

  IF (p_expected = -1 AND v_current <> 0) OR (p_expected >= 0 AND v_current <> p_expected) THEN
    conflict_version := v_current;
    RETURN;
  END IF;

  IF v_existing = 0 THEN
    WITH ins AS (
      INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata)
      SELECT t.id, p_stream_id, v_current + t.ord::integer, t.type, t.data, t.metadata
      FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS t(id, type, data, metadata, ord)
      ORDER BY t.ord
      RETURNING stream_version, transaction_id, global_position
    )
    SELECT i.stream_version, kosh_position(i.transaction_id, i.global_position), cardinality(p_ids)
      INTO next_version, last_position, appended
      FROM ins i
      ORDER BY i.global_position DESC
      LIMIT 1;
  ELSE
    -- Some ids are stored already (a retry that grew): append only the others.
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
    SELECT i.stream_version, kosh_position(i.transaction_id, i.global_position), (SELECT count(*) FROM ins)::integer
      INTO next_version, last_position, appended
      FROM ins i
      ORDER BY i.global_position DESC
      LIMIT 1;
  END IF;
END
$$;

-- p_requests: [{ "stream": text, "expected": int, "ids": [text], "types": [text],
--                "data": [json], "metadata": [json] }, ...]
-- Returns one row per request (idx from 0, in request order). Takes every stream lock first,
-- in key order, so two batches cannot deadlock; requests run in order, so two appends to one
-- stream in one batch behave like two appends one after the other.
CREATE FUNCTION kosh_append_many(p_requests jsonb)
RETURNS TABLE (idx integer, next_version integer, last_position text, appended integer, conflict_version integer)
LANGUAGE plpgsql
AS $$
DECLARE
  v_key integer;
  v_request jsonb;
  v_ord bigint;
  v_result record;
BEGIN
  FOR v_key IN
    SELECT DISTINCT hashtext(x ->> 'stream') FROM jsonb_array_elements(p_requests) AS x ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(1265594216, v_key);
  END LOOP;

  FOR v_request, v_ord IN
    SELECT x, o FROM jsonb_array_elements(p_requests) WITH ORDINALITY AS t(x, o) ORDER BY o
  LOOP
    SELECT * INTO v_result FROM kosh_append_one(
      v_request ->> 'stream',
      (v_request ->> 'expected')::integer,
      ARRAY(SELECT v FROM jsonb_array_elements_text(v_request -> 'ids') WITH ORDINALITY AS a(v, o) ORDER BY o),
      ARRAY(SELECT v FROM jsonb_array_elements_text(v_request -> 'types') WITH ORDINALITY AS a(v, o) ORDER BY o),
      ARRAY(SELECT v FROM jsonb_array_elements(v_request -> 'data') WITH ORDINALITY AS a(v, o) ORDER BY o),
      ARRAY(SELECT v FROM jsonb_array_elements(v_request -> 'metadata') WITH ORDINALITY AS a(v, o) ORDER BY o)
    );
    idx := (v_ord - 1)::integer;
    next_version := v_result.next_version;
    last_position := v_result.last_position;
    appended := v_result.appended;
    conflict_version := v_result.conflict_version;
    RETURN NEXT;
  END LOOP;
END
$$;
