-- Previews of statement imports (issue 30): a preview is not history, so it is kept here and not
-- as events. The file is kept until the preview is committed or discarded so that a changed
-- mapping reads it again. Written by the API; never rebuilt from the log.
CREATE TABLE import_previews (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  account_id uuid NOT NULL,
  file_name text NOT NULL,
  file bytea,
  status text NOT NULL CHECK (status IN ('preview', 'committed', 'undone')),
  -- { format, encoding, preset, mapping, headerLine, skippedLines, counts, balance, rows }
  preview text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  version integer NOT NULL
);
CREATE INDEX import_previews_by_user ON import_previews (user_id, created_at DESC, id);
