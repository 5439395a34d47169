-- Issue 31: the spending report and budgets sum a period's debits by category (leaving out the
-- debits matched to an EMI, by id). This index holds every column they read, so the sum is an
-- index-only scan of the period's range of debits (bench:reports).
CREATE INDEX transactions_debits_by_date ON transactions (user_id, transaction_date)
  INCLUDE (category_id, amount, id) WHERE transaction_type = 'D';
