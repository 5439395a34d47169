-- Issue 30: a row of a statement import keeps the bank's narration as written (searched with the
-- notes) and the import that recorded it (its undo removes the import's rows).
ALTER TABLE transactions ADD COLUMN raw_narration text;
ALTER TABLE transactions ADD COLUMN import_id uuid;
CREATE INDEX transactions_by_import ON transactions (import_id) WHERE import_id IS NOT NULL;
DO $$
BEGIN
  EXECUTE 'CREATE INDEX transactions_raw_narration_trgm ON transactions USING gin (user_id, raw_narration gin_trgm_ops) WHERE raw_narration IS NOT NULL';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm or btree_gin unavailable: raw narration search scans the user''s rows';
END
$$;
