-- Per-user change counts (issue 33): the answer cache's and the token check's tags
-- (command-api/src/reads/checkpoint-tags.ts). A batch that applies events owned by one user moves
-- that user's count of the read model, not the read model's: another user's write no longer
-- renews everyone's cached answers. `projection_checkpoints.changes` (and `changed_position`)
-- now count the changes that may touch any user's rows: events owned by nobody or shared (the
-- catalog, audit grants, e-mail claims; runner/owners.ts) and a rebuild's swap. A read's tag is
-- both counts of each read model it reads.
CREATE TABLE projection_user_changes (
  name text NOT NULL,
  user_id text NOT NULL,
  changes bigint NOT NULL,
  changed_position text NOT NULL COLLATE "C",
  PRIMARY KEY (user_id, name)
);

-- The opening of a live batch, as 003's, with who the batch's events touch: `p_shared` moves the
-- read model's count, `p_users` (sorted, distinct) each user's count, in the batch's transaction.
CREATE FUNCTION kosh_lock_and_advance(
  p_lock integer, p_name text, p_from text, p_to text, p_shared boolean, p_users text[],
  OUT locked boolean, OUT advanced boolean, OUT at_position text, OUT at_status text
) LANGUAGE plpgsql AS $$
BEGIN
  locked := pg_try_advisory_xact_lock(p_lock, hashtext(p_name));
  advanced := false;
  IF locked THEN
    UPDATE projection_checkpoints c
       SET position = p_to, updated_at = now(),
           changes = c.changes + CASE WHEN p_shared THEN 1 ELSE 0 END,
           changed_position = CASE WHEN p_shared THEN p_to ELSE c.changed_position END
     WHERE c.name = p_name AND c.position = p_from AND c.status <> 'stopped';
    advanced := FOUND;
    IF advanced AND cardinality(p_users) > 0 THEN
      INSERT INTO projection_user_changes AS u (name, user_id, changes, changed_position)
      SELECT p_name, id, 1, p_to FROM unnest(p_users) AS id
      ON CONFLICT (user_id, name) DO UPDATE
        SET changes = u.changes + 1, changed_position = EXCLUDED.changed_position;
    END IF;
  END IF;
  SELECT c.position, c.status INTO at_position, at_status
    FROM projection_checkpoints c WHERE c.name = p_name;
END
$$;
