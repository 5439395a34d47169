-- Issue 30: a transaction may belong to one of the user's accounts (NULL: none, as every
-- transaction recorded before accounts existed). The book's account filter reads this index.
ALTER TABLE transactions ADD COLUMN account_id uuid;
CREATE INDEX transactions_by_account ON transactions (user_id, account_id, transaction_date, created_at, id);
