-- Recurring entries (issue 31): one row per entry (a deleted one stays, flagged, so a late
-- redelivery cannot bring it back), its skipped and changed occurrences by date, and the
-- occurrences already posted as transactions (from the TransactionRecorded events that say so).
CREATE TABLE recurring_entries (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  transaction_type text NOT NULL,
  amount numeric(14, 2) NOT NULL,
  notes text NOT NULL,
  payee text,
  category_id uuid,
  account_id uuid,
  frequency text NOT NULL,
  day_of_month integer,
  start_date date NOT NULL,
  end_date date,
  -- { "YYYY-MM-DD": { "kind": "skipped" } | { "kind": "changed", "amount": paise, "notes": text } }
  exceptions jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  version integer NOT NULL
);
CREATE INDEX recurring_entries_by_user ON recurring_entries (user_id, created_at, id) WHERE NOT deleted;

CREATE TABLE recurring_postings (
  transaction_id uuid PRIMARY KEY,
  recurring_id uuid NOT NULL,
  user_id text NOT NULL,
  occurrence_date date NOT NULL,
  amount numeric(14, 2) NOT NULL,
  posted_at timestamptz NOT NULL
);
CREATE INDEX recurring_postings_by_entry ON recurring_postings (recurring_id, occurrence_date);
