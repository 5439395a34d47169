-- The opening of a live batch (runner/catch-up.ts): take the projection's live lock without
-- waiting and, once held, move its checkpoint from where the batch starts to its last event
-- (compare-and-set). `changes` and `changed_position`, the answer cache's tag, move only with a
-- batch that may change rows. The batch's writes follow in the same transaction, so a batch
-- that fails moves nothing. A function, so the runner sends one short call with BEGIN in one
-- message and the server keeps its plans (issue 16: statements per POST /api/transactions).
CREATE FUNCTION kosh_lock_and_advance(
  p_lock integer, p_name text, p_from text, p_to text, p_changes boolean,
  OUT locked boolean, OUT advanced boolean, OUT at_position text, OUT at_status text
) LANGUAGE plpgsql AS $$
BEGIN
  locked := pg_try_advisory_xact_lock(p_lock, hashtext(p_name));
  advanced := false;
  IF locked THEN
    UPDATE projection_checkpoints c
       SET position = p_to, updated_at = now(),
           changes = c.changes + CASE WHEN p_changes THEN 1 ELSE 0 END,
           changed_position = CASE WHEN p_changes THEN p_to ELSE c.changed_position END
     WHERE c.name = p_name AND c.position = p_from AND c.status <> 'stopped';
    advanced := FOUND;
  END IF;
  SELECT c.position, c.status INTO at_position, at_status
    FROM projection_checkpoints c WHERE c.name = p_name;
END
$$;
