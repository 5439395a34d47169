-- Issue 33: the note words a search term is inside of, found by a trigram index of the words
-- alone. The index of 004 keys (user_id, word): a search walked the user_id entry's posting list,
-- every word of the user (10,000 in a 100,000-row book: 376 buffers, 7 ms), or the planner
-- preferred to scan the user's words (4-8 ms); the words' trigrams alone name the few words
-- holding the term across all users (14 buffers, 0.03 ms), then filtered by user.
DO $$
BEGIN
  EXECUTE 'CREATE INDEX transaction_note_words_word_trgm ON transaction_note_words USING gin (word gin_trgm_ops)';
  DROP INDEX IF EXISTS transaction_note_words_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable: a search scans the user''s words';
END
$$;
