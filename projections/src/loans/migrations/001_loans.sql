-- Loan list read model: one row per live loan. Bank and loan-type names are joined from the
-- catalog at query time (catalog entries never change).
CREATE TABLE loans (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  bank_id integer NOT NULL,
  loan_type_id integer NOT NULL,
  account_number text NOT NULL,
  short_detail text,
  principal_amount numeric(14, 2) NOT NULL,
  interest_rate numeric NOT NULL,
  is_interest_rate_yearly boolean NOT NULL,
  duration integer NOT NULL,
  is_duration_yearly boolean NOT NULL,
  start_date date NOT NULL,
  end_date date NOT NULL,
  processing_fee numeric(14, 2) NOT NULL,
  has_gst boolean NOT NULL,
  gst_percentage numeric NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Latest schedule version (0 before the first).
  schedule_version integer NOT NULL,
  -- Stream version of the last applied event: the ETag, and makes a redelivered event a no-op.
  version integer NOT NULL
);

-- One index per sort key ending in the tie-breakers (created_at, id): each page is a range scan.
CREATE INDEX loans_by_created ON loans (user_id, created_at, id);
CREATE INDEX loans_by_principal ON loans (user_id, principal_amount, created_at, id);
CREATE INDEX loans_by_rate ON loans (user_id, interest_rate, created_at, id);
CREATE INDEX loans_by_start ON loans (user_id, start_date, created_at, id);
CREATE INDEX loans_by_end ON loans (user_id, end_date, created_at, id);
CREATE INDEX loans_by_account ON loans (user_id, account_number, created_at, id);
CREATE INDEX loans_by_bank ON loans (user_id, bank_id, created_at, id);
CREATE INDEX loans_by_loan_type ON loans (user_id, loan_type_id, created_at, id);
