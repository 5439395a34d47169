-- Issue 30 item 11: the raw narration's trigram index holds only the narrations with white space.
-- A search of a term without white space finds a raw narration through the note words (they are
-- cut from the notes and the raw narration: `searchText`), so the index only has to serve a
-- term with white space, which only such a narration can hold (queries.ts `searchCondition`).
-- Indexing every narration (most UPI narrations are one long unique token) was a fifth of a
-- 50,000-row statement's write to this read model.
DROP INDEX IF EXISTS transactions_raw_narration_trgm;
DO $$
BEGIN
  EXECUTE 'CREATE INDEX transactions_raw_narration_spaced_trgm ON transactions USING gin (user_id, raw_narration gin_trgm_ops) WHERE raw_narration ~ ''[[:space:]]''';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm or btree_gin unavailable: raw narration search scans the user''s rows';
END
$$;
