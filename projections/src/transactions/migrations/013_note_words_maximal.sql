-- Issue 30 item 11: a note's word that a longer word of the same note holds is no longer posted
-- (note-cuts.ts `maximalWords`, projector.ts NOTE_WORDS). A search term without white space lies
-- inside a word, so also inside every longer word holding that one: the rows holding the term
-- are still the postings of the words that hold it, and a term held by one word only is held by
-- no shorter word dropped here, so that word's count is still the answer. An imported UPI row
-- ("upi · swiggy · 527411112222" and the narration's one long word holding all three) posted 5
-- words, now 2; a 50,000-row statement wrote 277,500 postings and 95,000 words (each with its
-- trigrams), now 120,000 and 50,000. The words already posted are cut the same way here, so an
-- edit takes out what its record put in.
DELETE FROM transaction_note_word_rows a
 USING transaction_note_word_rows b
 WHERE b.user_id = a.user_id AND b.transaction_id = a.transaction_id
   AND char_length(b.word) > char_length(a.word) AND strpos(b.word, a.word) > 0;

DELETE FROM transaction_note_words w
 WHERE NOT EXISTS (
   SELECT 1 FROM transaction_note_word_rows r WHERE r.user_id = w.user_id AND r.word = w.word);

UPDATE transaction_note_words w SET n = c.n
  FROM (SELECT user_id, word, count(*)::int AS n FROM transaction_note_word_rows GROUP BY user_id, word) c
 WHERE c.user_id = w.user_id AND c.word = w.word AND w.n <> c.n;
