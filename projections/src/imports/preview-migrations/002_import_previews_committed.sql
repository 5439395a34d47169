-- Issue 30 item 11: what a commit recorded (the transaction of each row index, the EMIs matched)
-- is kept in a column of its own, so marking a preview committed rewrites a few bytes and not the
-- whole preview (tens of MB for a 50,000-row statement); PostgreSQL keeps the unchanged preview's
-- stored value as it is.
ALTER TABLE import_previews ADD COLUMN committed text;

-- The preview and the file are stored uncompressed: pglz compressing (and, on every read,
-- decompressing) the tens of MB of a 50,000-row preview cost seconds of the upload and the commit;
-- a preview lives only until it is committed or discarded.
ALTER TABLE import_previews ALTER COLUMN preview SET STORAGE EXTERNAL;
ALTER TABLE import_previews ALTER COLUMN file SET STORAGE EXTERNAL;
