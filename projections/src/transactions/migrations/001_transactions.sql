-- Transaction book read model: one row per live transaction, and one stats row per user that
-- sums them (written in the same batch, so the list and the totals never disagree).
CREATE TABLE transactions (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  notes text NOT NULL,
  transaction_type char(1) NOT NULL CHECK (transaction_type IN ('C', 'D')),
  transaction_date date NOT NULL,
  amount numeric(14, 2) NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Stream version of the last applied event: the ETag, and makes a redelivered event a no-op.
  version integer NOT NULL
);

-- One index per sort key, each ending in the tie-breakers (created_at, id), so every page is a
-- range scan that stops after `limit` rows, in either direction. A type filter rides on these
-- (half the rows or more match); its count comes from transaction_stats.
CREATE INDEX transactions_by_date ON transactions (user_id, transaction_date, created_at, id);
CREATE INDEX transactions_by_amount ON transactions (user_id, amount, created_at, id);
CREATE INDEX transactions_by_created ON transactions (user_id, created_at, id);
CREATE INDEX transactions_by_notes ON transactions (user_id, notes, created_at, id);

-- Notes search is a case-insensitive substring match: a trigram index serves it on PostgreSQL.
-- Where pg_trgm cannot be created (embedded PGlite without the extension) the search scans the
-- user's rows instead; the result is the same.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXECUTE 'CREATE INDEX transactions_notes_trgm ON transactions USING gin (notes gin_trgm_ops)';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable: notes search scans the user''s rows';
END
$$;

CREATE TABLE transaction_stats (
  user_id text PRIMARY KEY,
  total_transactions bigint NOT NULL,
  credit_count bigint NOT NULL,
  debit_count bigint NOT NULL,
  credit_amount numeric(20, 2) NOT NULL,
  debit_amount numeric(20, 2) NOT NULL
);
