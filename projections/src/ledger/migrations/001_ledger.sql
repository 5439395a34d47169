-- Monthly ledger read model. Every entry a month shows is a row here, made when its event is
-- projected: the user's transactions (credits and debits) and one debit per EMI of the latest
-- schedule of each live loan. GET /api/ledger reads one index range.
CREATE TABLE ledger_entries (
  -- Transaction id, or 'emi-{loanId}-{paymentNumber}'.
  entry_id text PRIMARY KEY,
  user_id text NOT NULL,
  entry_date date NOT NULL,
  side char(1) NOT NULL CHECK (side IN ('C', 'D')),
  kind text NOT NULL CHECK (kind IN ('transaction', 'emi')),
  particulars text NOT NULL,
  amount numeric(14, 2) NOT NULL,
  -- Orders entries of one day: the transaction's created_at, the schedule's generated_at.
  created_at timestamptz NOT NULL,
  -- Set on EMI entries: a regenerated or deleted loan replaces or removes them.
  loan_id text,
  -- Stream version of the last applied event (transaction entries): a redelivery is a no-op.
  version integer NOT NULL
);

CREATE INDEX ledger_entries_by_date ON ledger_entries (user_id, entry_date, created_at, entry_id);
CREATE INDEX ledger_entries_by_loan ON ledger_entries (loan_id) WHERE loan_id IS NOT NULL;

-- What the ledger needs to know of each loan to write its EMI entries.
CREATE TABLE ledger_loans (
  loan_id text PRIMARY KEY,
  user_id text NOT NULL,
  bank_id integer NOT NULL,
  loan_type_id integer NOT NULL,
  account_number text NOT NULL,
  deleted boolean NOT NULL,
  schedule_version integer NOT NULL,
  -- The latest schedule's instalments: [{ "n": 1, "date": "YYYY-MM-DD", "emi": paise }].
  emis jsonb NOT NULL,
  generated_at timestamptz,
  version integer NOT NULL
);

CREATE INDEX ledger_loans_by_user ON ledger_loans (user_id);

-- Names of lenders and loan types for the EMI particulars. Catalog entries are shared
-- (owner_user_id null) or belong to the user who added them.
CREATE TABLE ledger_names (
  kind text NOT NULL CHECK (kind IN ('bank', 'loan_type')),
  id integer NOT NULL,
  name text NOT NULL,
  owner_user_id text,
  PRIMARY KEY (kind, id)
);

-- Entries per user and month, kept with the entries in the same batch (available periods).
CREATE TABLE ledger_periods (
  user_id text NOT NULL,
  year integer NOT NULL,
  month integer NOT NULL,
  transaction_count integer NOT NULL,
  emi_count integer NOT NULL,
  PRIMARY KEY (user_id, year, month)
);
