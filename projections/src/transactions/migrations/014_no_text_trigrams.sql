-- Issue 30 item 11: no trigram index over the notes or the raw narration. A search term without
-- white space already finds its rows through the note words; a term with white space now does
-- too (queries.ts `searchCondition`): each piece between its spaces lies inside one word of every
-- row holding the term, so the postings of the words holding its longest piece, filtered by
-- ILIKE, are its rows. The notes' trigram index was over a quarter of the PostgreSQL time of a
-- 50,000-row statement's write to this read model, the narration's another sixteenth.
DROP INDEX IF EXISTS transactions_notes_by_user_trgm;
DROP INDEX IF EXISTS transactions_raw_narration_spaced_trgm;
