-- Auditor grants (issue 14): an `audit-{grantId}` stream belongs to the granting user, so the
-- grant, its revocation and every read an auditor made are in the owner's chain and export.
-- Same rule as projections/src/history/projector.ts `ownerOf`.
CREATE OR REPLACE FUNCTION kosh_event_owner(p_stream_id text, p_data jsonb, p_metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN p_stream_id ~ '^(user|loan|txn|bank|loantype|audit)-'
    THEN coalesce(p_metadata->>'userId', p_data->>'userId', p_data->>'ownerUserId') END
$$;
