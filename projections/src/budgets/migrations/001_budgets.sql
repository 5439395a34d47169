-- Budgets read model (issue 31): one row per budget, a monthly amount for one expense category.
-- `amounts` keeps each amount with the month it counts from, so a past month's status uses the
-- amount it had then; a deleted budget stays as a tombstone so an event delivered again after
-- it changes nothing.
CREATE TABLE budgets (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  category_id uuid NOT NULL,
  amount numeric(14, 2) NOT NULL,
  rollover boolean NOT NULL,
  -- YYYY-MM: the first month the budget counts.
  start_month text NOT NULL,
  -- [{ "from": "YYYY-MM", "amount": paise }], oldest first.
  amounts jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  version integer NOT NULL
);
CREATE INDEX budgets_by_user ON budgets (user_id, category_id) WHERE NOT deleted;
