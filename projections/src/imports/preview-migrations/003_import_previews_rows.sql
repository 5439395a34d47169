-- Issue 30 item 11: a preview's rows are stored apart from its summary, packed (JSON tuples) and
-- deflated by the API (preview-store.ts): about 2 MB for a 50,000-row statement instead of 26 MB
-- of JSON written at upload; `preview` keeps the summary (format, mapping, counts, balance), so
-- the list of imports reads no rows. A preview stored before holds its rows in `preview` (rows
-- NULL) and is read as it is. Already compressed, so stored as it is.
ALTER TABLE import_previews ADD COLUMN rows bytea;
ALTER TABLE import_previews ALTER COLUMN rows SET STORAGE EXTERNAL;
