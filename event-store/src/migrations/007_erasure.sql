-- Account erasure (issue 32, ARCHITECTURE.md "Erasure"). An erased account's events are deleted
-- from the log, with their links of its hash chain and its chain head. What is kept for
-- accountability names no one: a keyed hash of the user id (HMAC-SHA-256 under a key from the
-- server's configuration), when, how many events went, and the head of the chain as it was (a
-- SHA-256 over random ids and the events, which an auditor holding a signed export of that
-- account can compare with the chain head the export carries).
CREATE TABLE erased_accounts (
  subject_hash text PRIMARY KEY,
  erased_at timestamptz NOT NULL,
  events_erased integer NOT NULL,
  chain_seq bigint,
  chain_head text
);

-- Another account's chain had to be written again because an event of theirs held the erased
-- person's address (an audit grant to them, a read they made under it): the address in that
-- event was replaced and the chain re-hashed from its first link. Earlier signed exports of that
-- account carry the old head; this row says when and why it changed, and from what to what.
CREATE TABLE event_chain_rewrites (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL,
  rewritten_at timestamptz NOT NULL,
  reason text NOT NULL,
  previous_seq bigint,
  previous_head text,
  seq bigint,
  head text
);

-- Re-links every event of `p_user_id`'s chain in log order from the genesis hash (after events
-- of theirs were deleted or edited); records the change in event_chain_rewrites. The caller holds
-- the transaction; the head row is locked first, as an append would.
CREATE FUNCTION kosh_chain_rebuild(p_user_id text, p_reason text, p_at timestamptz) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  r record;
  v_seq bigint := 0;
  v_hash text := repeat('0', 64);
  v_prev_seq bigint;
  v_prev_head text;
BEGIN
  SELECT h.seq, h.hash INTO v_prev_seq, v_prev_head FROM event_chain_heads h WHERE h.user_id = p_user_id FOR UPDATE;
  DELETE FROM event_chain WHERE user_id = p_user_id;
  FOR r IN
    SELECT e.global_position, e.event_id, e.stream_id, e.stream_version, e.type, e.data, e.metadata
      FROM events e
     WHERE kosh_event_owner(e.stream_id, e.data, e.metadata) = p_user_id
     ORDER BY e.global_position
  LOOP
    v_seq := v_seq + 1;
    v_hash := kosh_chain_hash(v_hash, r.event_id, r.stream_id, r.stream_version, r.type, r.data, r.metadata);
    INSERT INTO event_chain (global_position, user_id, seq, hash) VALUES (r.global_position, p_user_id, v_seq, v_hash);
  END LOOP;
  IF v_seq = 0 THEN
    DELETE FROM event_chain_heads WHERE user_id = p_user_id;
  ELSE
    INSERT INTO event_chain_heads (user_id, seq, hash) VALUES (p_user_id, v_seq, v_hash)
    ON CONFLICT (user_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash;
  END IF;
  INSERT INTO event_chain_rewrites (user_id, rewritten_at, reason, previous_seq, previous_head, seq, head)
  VALUES (p_user_id, p_at, p_reason, v_prev_seq, v_prev_head, nullif(v_seq, 0),
          CASE WHEN v_seq = 0 THEN NULL ELSE v_hash END);
END
$$;
