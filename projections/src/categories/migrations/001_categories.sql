-- Categories read model (issue 31): each user's two-level tree of income and expense categories,
-- one row per category. A merged or deleted category stays as a tombstone (deleted, and where
-- its transactions went) so an event delivered again after it changes nothing.
CREATE TABLE categories (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('income', 'expense')),
  parent_id uuid,
  -- The seed's key (domain/src/category/seed.ts) of a seeded category; 'loan-emi' is the system's.
  system_key text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  -- Where a merged or deleted category's transactions went (NULL: to none).
  moved_to uuid,
  -- Stream version (of `categories-{userId}`) of the last event folded into the row.
  version integer NOT NULL
);
CREATE INDEX categories_by_user ON categories (user_id, kind, parent_id, position) WHERE NOT deleted;
