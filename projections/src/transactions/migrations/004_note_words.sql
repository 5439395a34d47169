-- The words of each user's notes (lower(notes) cut at white space), for a search of a term
-- without white space: such a term can only occur inside one word, so the rows whose notes hold
-- it are the rows holding one of the user's words that hold it. Counting them through the
-- trigram index visited every matching row (a common word, 4,000 rows of 100,000: 16 ms of
-- PostgreSQL per request, `npm run bench:http`); here it is one look-up in the user's
-- dictionary of words, and a read of the postings when more than one word holds the term.
-- Kept by the transactions projection in the batch that changes the rows.
CREATE TABLE transaction_note_words (
  user_id text NOT NULL,
  word text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (user_id, word)
);

-- Which of the user's transactions hold each word: the exact union when several words hold the
-- term, and the rows of a rare term without reading the others.
CREATE TABLE transaction_note_word_rows (
  user_id text NOT NULL,
  word text NOT NULL,
  transaction_id uuid NOT NULL,
  PRIMARY KEY (user_id, word, transaction_id)
);

INSERT INTO transaction_note_word_rows (user_id, word, transaction_id)
SELECT DISTINCT t.user_id, w.word, t.id
  FROM transactions t
  CROSS JOIN LATERAL regexp_split_to_table(lower(t.notes), '[[:space:]]+') AS w(word)
 WHERE w.word <> '';

INSERT INTO transaction_note_words (user_id, word, n)
SELECT user_id, word, count(*) FROM transaction_note_word_rows GROUP BY user_id, word;

-- Finding the user's words that hold the term: a trigram index keyed by the user first (as
-- 002_notes_search.sql does for the notes). Without the extensions the dictionary is scanned.
DO $$
BEGIN
  EXECUTE 'CREATE INDEX transaction_note_words_trgm ON transaction_note_words USING gin (user_id, word gin_trgm_ops)';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm or btree_gin unavailable: a search scans the user''s words';
END
$$;
