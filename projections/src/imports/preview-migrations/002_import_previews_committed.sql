-- Issue 30 item 11: what a commit recorded (the transaction of each row index, the EMIs matched)
-- is kept in a column of its own, so marking a preview committed rewrites a few bytes and not the
-- whole preview (tens of MB for a 50,000-row statement); PostgreSQL keeps the unchanged preview's
-- stored value as it is.
ALTER TABLE import_previews ADD COLUMN committed text;
