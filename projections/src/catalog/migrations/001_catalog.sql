-- Banks and loan types. user_id NULL: the seeded catalog everyone sees; otherwise the entry is
-- visible only to the user who added it.
CREATE TABLE catalog_banks (
  id integer PRIMARY KEY,
  user_id text,
  bank_name text NOT NULL,
  branch_name text,
  created_at timestamptz NOT NULL
);
CREATE INDEX catalog_banks_by_name ON catalog_banks (bank_name, id);
CREATE INDEX catalog_banks_by_user ON catalog_banks (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE catalog_loan_types (
  id integer PRIMARY KEY,
  user_id text,
  type_name text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX catalog_loan_types_by_name ON catalog_loan_types (type_name, id);

-- Ids of user-added entries (command side: taken with nextval when the command is handled).
-- Seeds use fixed ids below 1001. Sequences are not tables, so a rebuild never touches them.
CREATE SEQUENCE catalog_bank_id_seq START 1001;
CREATE SEQUENCE catalog_loan_type_id_seq START 1001;
