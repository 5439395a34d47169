-- Issue 31: a transaction may have one of the user's categories and a payee (NULL: none). A
-- category's merge or delete moves its transactions (transactions_by_category finds them); the
-- category filter of the book and the categories' counts read the same index.
ALTER TABLE transactions ADD COLUMN category_id uuid;
ALTER TABLE transactions ADD COLUMN payee text;
CREATE INDEX transactions_by_category ON transactions (user_id, category_id, transaction_date, created_at, id);
