-- Statement imports read model (issue 30): each committed batch, and the fingerprint keys of the
-- rows it recorded, per account, so a later import of the same or an overlapping statement finds
-- them (an undo takes its keys out again).
CREATE TABLE import_batches (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  account_id uuid NOT NULL,
  file_name text NOT NULL,
  format text NOT NULL,
  preset text,
  row_count integer NOT NULL,
  skipped_rows integer NOT NULL,
  balance_mismatch_confirmed boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('committed', 'undone')),
  committed_at timestamptz NOT NULL,
  undone_at timestamptz,
  version integer NOT NULL
);
CREATE INDEX import_batches_by_user ON import_batches (user_id, committed_at DESC, id);

CREATE TABLE import_fingerprints (
  account_id uuid NOT NULL,
  key text NOT NULL,
  user_id text NOT NULL,
  import_id uuid NOT NULL,
  transaction_id uuid NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX import_fingerprints_by_import ON import_fingerprints (import_id);
