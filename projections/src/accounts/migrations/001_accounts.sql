-- Accounts read model (issue 30): the user's accounts, the transactions that belong to one, and
-- transfers between two. A register is the union of an account's transactions and transfer legs;
-- a balance is the opening balance plus the register's signed amounts. Rows of a deleted
-- account or transfer, and of a transaction taken out of its account, stay as tombstones
-- (deleted / account_id NULL) so an event delivered again after them changes nothing.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL,
  bank_id integer,
  bank_name text,
  last_four char(4),
  opening_balance numeric(14, 2) NOT NULL,
  opening_date date NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  version integer NOT NULL
);
CREATE INDEX accounts_by_user ON accounts (user_id, name, id) WHERE NOT deleted;

-- One row per transaction that is or was in an account; amount signed (credit +, debit -).
CREATE TABLE account_transactions (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  account_id uuid,
  entry_date date NOT NULL,
  amount numeric(14, 2) NOT NULL,
  notes text NOT NULL,
  created_at timestamptz NOT NULL,
  version integer NOT NULL
);
CREATE INDEX account_transactions_by_account ON account_transactions (account_id, entry_date, created_at, id)
  WHERE account_id IS NOT NULL;

CREATE TABLE account_transfers (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  from_account_id uuid NOT NULL,
  to_account_id uuid NOT NULL,
  amount numeric(14, 2) NOT NULL,
  transfer_date date NOT NULL,
  notes text NOT NULL,
  created_at timestamptz NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  version integer NOT NULL
);
CREATE INDEX account_transfers_from ON account_transfers (from_account_id, transfer_date) WHERE NOT deleted;
CREATE INDEX account_transfers_to ON account_transfers (to_account_id, transfer_date) WHERE NOT deleted;
CREATE INDEX account_transfers_by_user ON account_transfers (user_id, transfer_date, created_at, id)
  WHERE NOT deleted;
