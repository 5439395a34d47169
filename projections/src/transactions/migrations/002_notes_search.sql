-- Notes search reads only the user's rows: one trigram index keyed by the user first
-- (btree_gin gives text its GIN operator class), in place of the index over every user's notes.
-- With the global index the planner had to guess how many of the user's rows a pattern would
-- hit among everyone's; after a burst of writes its estimate flipped the plan to a scan of the
-- table. A search of one or two characters has no trigram: the index then still narrows the
-- scan to the user's entries. Where the extensions cannot be created, search scans the user's
-- rows through transactions_by_notes; the result is the same.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE EXTENSION IF NOT EXISTS btree_gin;
  DROP INDEX IF EXISTS transactions_notes_trgm;
  EXECUTE 'CREATE INDEX transactions_notes_by_user_trgm ON transactions USING gin (user_id, notes gin_trgm_ops)';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm or btree_gin unavailable: notes search scans the user''s rows';
END
$$;
