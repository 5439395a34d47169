-- Issue 32: a request to erase one's account and its cancellation (`erasure-{userId}`) are the
-- owner's events like any other: in their History and signed export, so in their chain too
-- (projections/src/history/projector.ts `ownerOf` has the same rule). No such event existed
-- before this migration, so no chain is re-linked. The stream goes with the account.
CREATE OR REPLACE FUNCTION kosh_event_owner(p_stream_id text, p_data jsonb, p_metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN p_stream_id ~ '^(user|loan|txn|bank|loantype|audit|erasure)-'
    THEN coalesce(p_metadata->>'userId', p_data->>'userId', p_data->>'ownerUserId') END
$$;
