-- Rules read model (issue 31): each user's categorisation rules, one row per rule (a deleted one
-- stays as a tombstone so an event delivered again after it changes nothing). Columns of the
-- rule's fields derive from RULE_FIELDS (projections/src/runner/columns.ts).
CREATE TABLE rules (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  name text NOT NULL,
  match_text text,
  match_pattern text,
  amount_min numeric(14, 2),
  amount_max numeric(14, 2),
  account_id uuid,
  transaction_type text,
  category_id uuid,
  payee text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  -- How many times it was applied to existing entries, and how many transactions that changed.
  applied_count integer NOT NULL DEFAULT 0,
  changed_count integer NOT NULL DEFAULT 0,
  version integer NOT NULL
);
CREATE INDEX rules_by_user ON rules (user_id, created_at, id) WHERE NOT deleted;
