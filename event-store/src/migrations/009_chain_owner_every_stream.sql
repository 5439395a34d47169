-- One owner rule for every stream (domain/src/export/event-owner.ts `eventOwner`, which History's
-- `ownerOf` uses; projections/src/history/owner-rule.unit.spec.ts and event-store/src/chain.int.spec.ts holds the two together). 003-008
-- chained only streams whose prefix was listed (user, loan, txn, bank, loantype, audit, erasure),
-- while History showed and exported `account-`, `transfer-` and `import-` events too: every export
-- of a user with a bank account, a transfer or an import failed verification (an event line with
-- no chain link). A prefix list breaks again with each new stream, so the rule is now generic:
-- every event is its owner's (the acting user, else the user its data names, else a catalog
-- entry's owner), except on the streams that are nobody's: e-mail reservations (`email-*`, held
-- by several accounts over time) and `erased-accounts`. The seeded catalog names no one.
CREATE OR REPLACE FUNCTION kosh_event_owner(p_stream_id text, p_data jsonb, p_metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN p_stream_id LIKE 'email-%' OR p_stream_id = 'erased-accounts' THEN NULL
    ELSE coalesce(p_metadata->>'userId', p_data->>'userId', p_data->>'ownerUserId') END
$$;

-- Re-links the chains of `p_owners` from genesis in one pass over the log (kosh_chain_rebuild of
-- 007 scans the log once per user), each owner's events in export order (transaction, position),
-- heads locked in user order as an append takes them, and records each rewrite in
-- event_chain_rewrites (the heads before and after, when, why).
CREATE FUNCTION kosh_chain_relink(p_owners text[], p_reason text, p_at timestamptz) RETURNS integer
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
  CREATE TEMP TABLE kosh_relink_before ON COMMIT DROP AS
    SELECT o.user_id, h.seq, h.hash
      FROM (SELECT DISTINCT u AS user_id FROM unnest(p_owners) AS u) o
      LEFT JOIN event_chain_heads h ON h.user_id = o.user_id;
  PERFORM 1 FROM event_chain_heads h WHERE h.user_id = ANY (p_owners) ORDER BY h.user_id FOR UPDATE;
  DELETE FROM event_chain WHERE user_id = ANY (p_owners);
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
      IF v_owner IS NOT NULL THEN
        INSERT INTO event_chain_heads (user_id, seq, hash) VALUES (v_owner, v_seq, v_hash)
        ON CONFLICT (user_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash;
      END IF;
      v_owner := r.owner;
      v_seq := 0;
      v_hash := repeat('0', 64);
      v_count := v_count + 1;
    END IF;
    v_seq := v_seq + 1;
    v_hash := kosh_chain_hash(v_hash, r.event_id, r.stream_id, r.stream_version, r.type, r.data, r.metadata);
    INSERT INTO event_chain (global_position, user_id, seq, hash) VALUES (r.global_position, v_owner, v_seq, v_hash);
  END LOOP;
  IF v_owner IS NOT NULL THEN
    INSERT INTO event_chain_heads (user_id, seq, hash) VALUES (v_owner, v_seq, v_hash)
    ON CONFLICT (user_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash;
  END IF;
  -- An owner left with no event (none can be here, but the rule is the rule) has no head.
  DELETE FROM event_chain_heads h
   WHERE h.user_id = ANY (p_owners) AND NOT EXISTS (SELECT 1 FROM event_chain c WHERE c.user_id = h.user_id);
  INSERT INTO event_chain_rewrites (user_id, rewritten_at, reason, previous_seq, previous_head, seq, head)
  SELECT b.user_id, p_at, p_reason, b.seq, b.hash, h.seq, h.hash
    FROM kosh_relink_before b LEFT JOIN event_chain_heads h ON h.user_id = b.user_id
   ORDER BY b.user_id;
  DROP TABLE kosh_relink_before;
  RETURN v_count;
END
$$;

-- Every user with an event the new rule owns but the old one did not chain: their chain is
-- re-linked from genesis in log order, so an already-deployed database verifies after migrating.
-- Exports signed before carry the old heads; event_chain_rewrites says when and why they changed.
SELECT kosh_chain_relink(
  coalesce((
    SELECT array_agg(DISTINCT o.owner ORDER BY o.owner)
      FROM (SELECT kosh_event_owner(e.stream_id, e.data, e.metadata) AS owner
              FROM events e
             WHERE NOT EXISTS (SELECT 1 FROM event_chain c WHERE c.global_position = e.global_position)) o
     WHERE o.owner IS NOT NULL
  ), '{}'),
  'migration 009: account, transfer and import events (every stream but e-mail reservations) chained',
  now()
);
