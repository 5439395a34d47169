-- Issue 33: the chain link in the event's own row. Same chain as 003-009 (same owner rule, same
-- hashes, same numbering, each owner's events in log order), cheaper to keep: 003-009 wrote each
-- append twice more (the owner's head row updated, a row in event_chain with two index entries)
-- from a statement trigger over a transition table. Now an append works out each event's owner,
-- takes the owner's chain lock (a transaction-scoped advisory lock, after the stream's: no row is
-- written to lock), reads the owner's last link from an index of events, and writes every event
-- with its link (chain_owner, chain_seq, chain_hash) in the one INSERT it already made.
--
-- event_chain and event_chain_heads stay as views of those columns for readers (History's export,
-- erasure, tests); kosh_chain_verify / kosh_chain_rebuild / kosh_chain_relink work on the columns.
-- An event written past the append functions (no link) is still found by kosh_chain_verify.

ALTER TABLE events ADD COLUMN chain_owner text, ADD COLUMN chain_seq bigint, ADD COLUMN chain_hash text;

-- The links as they stand, moved into their events.
UPDATE events e SET chain_owner = c.user_id, chain_seq = c.seq, chain_hash = c.hash
  FROM event_chain c
 WHERE c.global_position = e.global_position;

-- One link per number per owner; an owner's last link is the first entry of a backward scan.
CREATE UNIQUE INDEX events_chain_key ON events (chain_owner, chain_seq) WHERE chain_owner IS NOT NULL;

DROP TRIGGER events_user_chain ON events;
DROP FUNCTION kosh_chain_events();
DROP FUNCTION kosh_chain_link(text, bigint, text, text, integer, text, jsonb, jsonb);
DROP TABLE event_chain;
DROP TABLE event_chain_heads;

CREATE VIEW event_chain AS
  SELECT e.global_position, e.chain_owner AS user_id, e.chain_seq AS seq, e.chain_hash AS hash
    FROM events e
   WHERE e.chain_owner IS NOT NULL;

-- Each owner's last link (a condition on user_id is pushed into the DISTINCT ON: one index probe).
CREATE VIEW event_chain_heads AS
  SELECT DISTINCT ON (e.chain_owner) e.chain_owner AS user_id, e.chain_seq AS seq, e.chain_hash AS hash
    FROM events e
   WHERE e.chain_owner IS NOT NULL
   ORDER BY e.chain_owner, e.chain_seq DESC;

-- Takes the chain locks of `p_owners` (NULLs skipped) until the transaction ends, in key order so
-- that two transactions cannot deadlock on them. Every writer of a chain takes it after the
-- locks of the streams it appends to.
CREATE FUNCTION kosh_chain_lock(p_owners text[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1265594217, keys.k)
     FROM (SELECT DISTINCT hashtext(o) AS k FROM unnest(p_owners) AS o WHERE o IS NOT NULL ORDER BY 1) AS keys;
END
$$;

-- The links of events about to be inserted, in their order: owner i's events continue its chain
-- from its last link (NULLs for events nobody owns). The caller holds the owners' chain locks.
CREATE FUNCTION kosh_chain_next(
  p_owners text[],
  p_ids text[],
  p_streams text[],
  p_versions integer[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[],
  OUT seqs bigint[],
  OUT hashes text[]
)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $$
DECLARE
  v_heads text[] := '{}';
  v_seq bigint[] := '{}';
  v_hash text[] := '{}';
  v_owner text;
  v_at integer;
  v_s bigint;
  v_h text;
BEGIN
  seqs := '{}';
  hashes := '{}';
  FOR i IN 1 .. cardinality(p_ids) LOOP
    v_owner := p_owners[i];
    IF v_owner IS NULL THEN
      seqs := seqs || NULL::bigint;
      hashes := hashes || NULL::text;
      CONTINUE;
    END IF;
    v_at := array_position(v_heads, v_owner);
    IF v_at IS NULL THEN
      SELECT e.chain_seq, e.chain_hash INTO v_s, v_h
        FROM events e
       WHERE e.chain_owner = v_owner
       ORDER BY e.chain_seq DESC
       LIMIT 1;
      IF NOT FOUND THEN
        v_s := 0;
        v_h := repeat('0', 64);
      END IF;
      v_heads := v_heads || v_owner;
      v_at := cardinality(v_heads);
    ELSE
      v_s := v_seq[v_at];
      v_h := v_hash[v_at];
    END IF;
    v_s := v_s + 1;
    v_h := kosh_chain_hash(v_h, p_ids[i], p_streams[i], p_versions[i], p_types[i], p_data[i], p_metadata[i]);
    v_seq[v_at] := v_s;
    v_hash[v_at] := v_h;
    seqs := seqs || v_s;
    hashes := hashes || v_h;
  END LOOP;
END
$$;

-- kosh_append_one as in 001/002 (one statement, conflicts reported, stored ids skipped), with the
-- chain: the stream's lock, then the owners' chain locks, then each event with its link in one
-- INSERT. A lone event (most appends) takes its owner's last link in the same statement that reads
-- the stream's version.
CREATE OR REPLACE FUNCTION kosh_append_one(
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
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $$
DECLARE
  v_n integer := cardinality(p_ids);
  v_owners text[];
  v_existing integer;
  v_current integer;
  v_seq bigint;
  v_hash text;
  v_versions integer[];
  v_streams text[];
  v_seqs bigint[];
  v_hashes text[];
BEGIN
  IF v_n = 1 THEN
    v_owners := ARRAY[kosh_event_owner(p_stream_id, p_data[1], p_metadata[1])];
  ELSE
    v_owners := ARRAY(
      SELECT kosh_event_owner(p_stream_id, t.d, t.m)
        FROM unnest(p_data, p_metadata) WITH ORDINALITY AS t(d, m, k)
       ORDER BY t.k);
  END IF;

  PERFORM pg_advisory_xact_lock(1265594216, hashtext(p_stream_id));
  IF v_n = 1 THEN
    IF v_owners[1] IS NOT NULL THEN
      PERFORM pg_advisory_xact_lock(1265594217, hashtext(v_owners[1]));
    END IF;
  ELSE
    PERFORM kosh_chain_lock(v_owners);
  END IF;

  SELECT coalesce((SELECT max(e.stream_version) FROM events e WHERE e.stream_id = p_stream_id), 0),
         (SELECT count(*) FROM events e WHERE e.event_id = ANY (p_ids)),
         h.chain_seq, h.chain_hash
    INTO v_current, v_existing, v_seq, v_hash
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (
      SELECT e.chain_seq, e.chain_hash FROM events e
       WHERE v_n = 1 AND e.chain_owner = v_owners[1]
       ORDER BY e.chain_seq DESC LIMIT 1
    ) AS h ON true;

  IF v_existing > 0 AND v_existing = v_n THEN
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

  IF v_n = 1 THEN
    -- One event, none stored: its link continues the owner's chain read above.
    INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata, chain_owner, chain_seq, chain_hash)
    VALUES (p_ids[1], p_stream_id, v_current + 1, p_types[1], p_data[1], p_metadata[1], v_owners[1],
      CASE WHEN v_owners[1] IS NOT NULL THEN coalesce(v_seq, 0) + 1 END,
      CASE WHEN v_owners[1] IS NOT NULL THEN kosh_chain_hash(coalesce(v_hash, repeat('0', 64)), p_ids[1],
        p_stream_id, v_current + 1, p_types[1], p_data[1], p_metadata[1]) END)
    RETURNING stream_version, kosh_position(transaction_id, global_position), 1
      INTO next_version, last_position, appended;
    RETURN;
  END IF;

  IF v_existing > 0 THEN
    -- Some ids are stored already (a retry that grew): append only the others.
    SELECT array_agg(t.id ORDER BY t.k), array_agg(t.type ORDER BY t.k), array_agg(t.data ORDER BY t.k),
           array_agg(t.metadata ORDER BY t.k), array_agg(t.owner ORDER BY t.k)
      INTO p_ids, p_types, p_data, p_metadata, v_owners
      FROM unnest(p_ids, p_types, p_data, p_metadata, v_owners) WITH ORDINALITY AS t(id, type, data, metadata, owner, k)
     WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.event_id = t.id);
    v_n := cardinality(p_ids);
  END IF;

  v_versions := ARRAY(SELECT v_current + g FROM generate_series(1, v_n) AS g);
  v_streams := array_fill(p_stream_id, ARRAY[v_n]);
  SELECT c.seqs, c.hashes INTO v_seqs, v_hashes
    FROM kosh_chain_next(v_owners, p_ids, v_streams, v_versions, p_types, p_data, p_metadata) AS c;

  WITH ins AS (
    INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata, chain_owner, chain_seq, chain_hash)
    SELECT t.id, p_stream_id, t.version, t.type, t.data, t.metadata, t.owner, t.seq, t.hash
    FROM unnest(p_ids, p_types, p_data, p_metadata, v_owners, v_versions, v_seqs, v_hashes)
      WITH ORDINALITY AS t(id, type, data, metadata, owner, version, seq, hash, k)
    ORDER BY t.k
    RETURNING stream_version, transaction_id, global_position
  )
  SELECT i.stream_version, kosh_position(i.transaction_id, i.global_position), v_n
    INTO next_version, last_position, appended
    FROM ins i
    ORDER BY i.global_position DESC
    LIMIT 1;
END
$$;

-- kosh_append_batch as in 001 (many callers' appends to distinct streams in one statement and one
-- commit, each with its own check and result), with the chain: every stream lock in key order,
-- then every owner's chain lock in key order, then the versions, the links, and one INSERT.
CREATE OR REPLACE FUNCTION kosh_append_batch(
  p_streams text[],
  p_expected integer[],
  p_req integer[],
  p_ids text[],
  p_types text[],
  p_data jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (idx integer, next_version integer, last_position text, conflict_version integer)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $$
DECLARE
  v_owners text[];
  v_verdict_i integer[];
  v_verdict_current integer[];
  v_verdict_all_stored boolean[];
  v_verdict_conflict boolean[];
  v_ids text[];
  v_streams text[];
  v_versions integer[];
  v_types text[];
  v_data jsonb[];
  v_metadata jsonb[];
  v_ins_owners text[];
  v_seqs bigint[];
  v_hashes text[];
BEGIN
  IF cardinality(p_streams) > 1
     AND (SELECT count(DISTINCT s) FROM unnest(p_streams) AS s) <> cardinality(p_streams) THEN
    RAISE EXCEPTION 'kosh_append_batch: a stream appears twice in one batch';
  END IF;

  PERFORM pg_advisory_xact_lock(1265594216, keys.k)
    FROM (SELECT DISTINCT hashtext(s) AS k FROM unnest(p_streams) AS s ORDER BY 1) AS keys;
  v_owners := ARRAY(
    SELECT kosh_event_owner(p_streams[e.i], e.d, e.m)
      FROM unnest(p_req, p_data, p_metadata) WITH ORDINALITY AS e(i, d, m, k)
     ORDER BY e.k);
  PERFORM kosh_chain_lock(v_owners);

  -- Each request's verdict (its stream's version, every id stored, a conflict), then the events to
  -- insert in order with their versions.
  WITH req AS (
    SELECT r.i::integer AS i, r.stream, r.expected
    FROM unnest(p_streams, p_expected) WITH ORDINALITY AS r(stream, expected, i)
  ),
  ev AS (
    SELECT e.k, e.i, e.id
    FROM unnest(p_req, p_ids) WITH ORDINALITY AS e(i, id, k)
  ),
  stored AS (
    SELECT ev.i, count(*) AS stored FROM ev JOIN events x ON x.event_id = ev.id GROUP BY ev.i
  ),
  total AS (
    SELECT ev.i, count(*) AS total FROM ev GROUP BY ev.i
  ),
  state AS (
    SELECT req.i, req.expected,
      coalesce((SELECT max(e.stream_version) FROM events e WHERE e.stream_id = req.stream), 0) AS current,
      coalesce(n.total, 0) > 0 AND coalesce(n.total, 0) = coalesce(s.stored, 0) AS all_stored
    FROM req
    LEFT JOIN total n ON n.i = req.i
    LEFT JOIN stored s ON s.i = req.i
  )
  SELECT array_agg(st.i ORDER BY st.i), array_agg(st.current ORDER BY st.i),
         array_agg(st.all_stored ORDER BY st.i),
         array_agg(NOT st.all_stored AND ((st.expected = -1 AND st.current <> 0)
           OR (st.expected >= 0 AND st.current <> st.expected)) ORDER BY st.i)
    INTO v_verdict_i, v_verdict_current, v_verdict_all_stored, v_verdict_conflict
    FROM state st;

  SELECT array_agg(x.id ORDER BY x.k), array_agg(p_streams[x.i] ORDER BY x.k),
         array_agg(v_verdict_current[x.i] + x.n ORDER BY x.k), array_agg(x.type ORDER BY x.k),
         array_agg(x.data ORDER BY x.k), array_agg(x.metadata ORDER BY x.k), array_agg(x.owner ORDER BY x.k)
    INTO v_ids, v_streams, v_versions, v_types, v_data, v_metadata, v_ins_owners
    FROM (
      SELECT e.*, (row_number() OVER (PARTITION BY e.i ORDER BY e.k))::integer AS n
        FROM unnest(p_req, p_ids, p_types, p_data, p_metadata, v_owners)
             WITH ORDINALITY AS e(i, id, type, data, metadata, owner, k)
       WHERE NOT v_verdict_all_stored[e.i] AND NOT v_verdict_conflict[e.i]
         AND NOT EXISTS (SELECT 1 FROM events s WHERE s.event_id = e.id)
    ) AS x;

  IF v_ids IS NOT NULL THEN
    SELECT c.seqs, c.hashes INTO v_seqs, v_hashes
      FROM kosh_chain_next(v_ins_owners, v_ids, v_streams, v_versions, v_types, v_data, v_metadata) AS c;
  END IF;

  RETURN QUERY
  WITH ins AS (
    INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata, chain_owner, chain_seq, chain_hash)
    SELECT t.id, t.stream, t.version, t.type, t.data, t.metadata, t.owner, t.seq, t.hash
    FROM unnest(v_ids, v_streams, v_versions, v_types, v_data, v_metadata, v_ins_owners, v_seqs, v_hashes)
      WITH ORDINALITY AS t(id, stream, version, type, data, metadata, owner, seq, hash, k)
    ORDER BY t.k
    RETURNING stream_id, stream_version, transaction_id, global_position
  ),
  ins_last AS (
    SELECT DISTINCT ON (ins.stream_id) ins.stream_id, ins.stream_version, ins.transaction_id, ins.global_position
    FROM ins
    ORDER BY ins.stream_id, ins.global_position DESC
  ),
  stored_last AS (
    SELECT DISTINCT ON (ev.i) ev.i, x.stream_version, x.transaction_id, x.global_position
    FROM unnest(p_req, p_ids) AS ev(i, id)
    JOIN events x ON x.event_id = ev.id
    WHERE v_verdict_all_stored[ev.i]
    ORDER BY ev.i, x.transaction_id DESC, x.global_position DESC
  )
  SELECT r.i - 1,
    CASE WHEN v_verdict_all_stored[r.i] THEN sl.stream_version ELSE il.stream_version END,
    CASE WHEN v_verdict_all_stored[r.i] THEN kosh_position(sl.transaction_id, sl.global_position)
      ELSE kosh_position(il.transaction_id, il.global_position) END,
    CASE WHEN v_verdict_conflict[r.i] THEN v_verdict_current[r.i] END
  FROM unnest(v_verdict_i) AS r(i)
  LEFT JOIN ins_last il ON il.stream_id = p_streams[r.i]
  LEFT JOIN stored_last sl ON sl.i = r.i
  ORDER BY r.i;
END
$$;

-- 003's check, on the links in the events: the first link of the user's chain that no longer
-- matches the log (an event edited or removed, a link edited), or NULL when the whole chain holds.
CREATE OR REPLACE FUNCTION kosh_chain_verify(p_user_id text) RETURNS bigint
LANGUAGE plpgsql STABLE
AS $$
DECLARE
  r record;
  v_prev text := repeat('0', 64);
  v_expected bigint := 0;
BEGIN
  FOR r IN
    SELECT e.chain_seq AS seq, e.chain_hash AS hash, e.event_id, e.stream_id, e.stream_version, e.type, e.data,
           e.metadata, kosh_event_owner(e.stream_id, e.data, e.metadata) AS owner
      FROM events e
     WHERE e.chain_owner = p_user_id
     ORDER BY e.chain_seq
  LOOP
    v_expected := v_expected + 1;
    IF r.seq IS DISTINCT FROM v_expected OR r.owner IS DISTINCT FROM p_user_id
       OR r.hash IS DISTINCT FROM kosh_chain_hash(v_prev, r.event_id, r.stream_id, r.stream_version, r.type, r.data,
         r.metadata) THEN
      RETURN v_expected;
    END IF;
    v_prev := r.hash;
  END LOOP;
  -- An event of the user's that is not in the chain (written past the append functions).
  IF EXISTS (SELECT 1 FROM events e
              WHERE e.chain_owner IS DISTINCT FROM p_user_id
                AND kosh_event_owner(e.stream_id, e.data, e.metadata) = p_user_id) THEN
    RETURN v_expected + 1;
  END IF;
  RETURN NULL;
END
$$;

-- 009's re-linking, on the links in the events: the chains of `p_owners` from genesis, each
-- owner's events in export order (transaction, position), under their chain locks, each rewrite
-- recorded in event_chain_rewrites (the heads before and after, when, why).
CREATE OR REPLACE FUNCTION kosh_chain_relink(p_owners text[], p_reason text, p_at timestamptz) RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  r record;
  v_owner text := NULL;
  v_seq bigint;
  v_hash text;
  v_count integer := 0;
BEGIN
  IF cardinality(p_owners) = 0 THEN
    RETURN 0;
  END IF;
  PERFORM kosh_chain_lock(p_owners);
  CREATE TEMP TABLE kosh_relink_before ON COMMIT DROP AS
    SELECT o.user_id, h.seq, h.hash
      FROM (SELECT DISTINCT u AS user_id FROM unnest(p_owners) AS u) o
      LEFT JOIN LATERAL (
        SELECT e.chain_seq AS seq, e.chain_hash AS hash FROM events e
         WHERE e.chain_owner = o.user_id ORDER BY e.chain_seq DESC LIMIT 1
      ) h ON true;
  UPDATE events SET chain_owner = NULL, chain_seq = NULL, chain_hash = NULL WHERE chain_owner = ANY (p_owners);
  FOR r IN
    SELECT o.* FROM (
      SELECT e.transaction_id, e.global_position, e.event_id, e.stream_id, e.stream_version, e.type, e.data,
             e.metadata, kosh_event_owner(e.stream_id, e.data, e.metadata) AS owner
        FROM events e
    ) o
     WHERE o.owner = ANY (p_owners)
     ORDER BY o.owner, o.transaction_id, o.global_position
  LOOP
    IF r.owner IS DISTINCT FROM v_owner THEN
      v_owner := r.owner;
      v_seq := 0;
      v_hash := repeat('0', 64);
      v_count := v_count + 1;
    END IF;
    v_seq := v_seq + 1;
    v_hash := kosh_chain_hash(v_hash, r.event_id, r.stream_id, r.stream_version, r.type, r.data, r.metadata);
    UPDATE events SET chain_owner = v_owner, chain_seq = v_seq, chain_hash = v_hash
     WHERE global_position = r.global_position;
  END LOOP;
  INSERT INTO event_chain_rewrites (user_id, rewritten_at, reason, previous_seq, previous_head, seq, head)
  SELECT b.user_id, p_at, p_reason, b.seq, b.hash, h.seq, h.hash
    FROM kosh_relink_before b
    LEFT JOIN LATERAL (
      SELECT e.chain_seq AS seq, e.chain_hash AS hash FROM events e
       WHERE e.chain_owner = b.user_id ORDER BY e.chain_seq DESC LIMIT 1
    ) h ON true
   ORDER BY b.user_id;
  DROP TABLE kosh_relink_before;
  RETURN v_count;
END
$$;

-- 007's re-linking of one user (erasure of another account) is 009's for one owner.
CREATE OR REPLACE FUNCTION kosh_chain_rebuild(p_user_id text, p_reason text, p_at timestamptz) RETURNS void
LANGUAGE sql
AS $$
  SELECT kosh_chain_relink(ARRAY[p_user_id], p_reason, p_at);
$$;
