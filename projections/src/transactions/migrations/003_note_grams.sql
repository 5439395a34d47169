-- How many of a user's transactions have each one- and two-character piece of their notes
-- (lower-cased as ILIKE compares them): the exact count of a one- or two-character search is one
-- lookup here. No trigram index serves such a search, and counting its matches read every one of
-- the user's rows (26 ms of PostgreSQL per request at 100,000 rows, `npm run bench:http`). Kept by
-- the transactions projection in the batch that changes the rows.
CREATE TABLE transaction_note_grams (
  user_id text NOT NULL,
  gram text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (user_id, gram)
);

INSERT INTO transaction_note_grams (user_id, gram, n)
SELECT t.user_id, g.gram, count(*)
  FROM transactions t
  CROSS JOIN LATERAL (
    SELECT DISTINCT substr(lower(t.notes), i, k) AS gram
      FROM generate_series(1, char_length(lower(t.notes))) AS i, (VALUES (1), (2)) AS len(k)
     WHERE i + k - 1 <= char_length(lower(t.notes))
  ) g
 GROUP BY t.user_id, g.gram;
