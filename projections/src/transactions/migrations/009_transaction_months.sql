-- Issue 31: the transaction book summed by month, type and category, so a report over a range
-- reads a cell per whole month instead of every transaction in it (spending over ten years:
-- about 3,000 cells against 80,000 debits). Written in the same batch as the rows it sums;
-- amounts in rupees as every total. A cell whose count reaches 0 is removed, so a rebuild holds
-- the same cells. NULL category: none (NULLS NOT DISTINCT makes it one cell).
CREATE TABLE transaction_months (
  user_id text NOT NULL,
  -- The month's first day.
  month date NOT NULL,
  transaction_type char(1) NOT NULL CHECK (transaction_type IN ('C', 'D')),
  category_id uuid,
  amount numeric(20, 2) NOT NULL,
  count bigint NOT NULL,
  CONSTRAINT transaction_months_cell UNIQUE NULLS NOT DISTINCT (user_id, transaction_type, month, category_id)
);

INSERT INTO transaction_months (user_id, month, transaction_type, category_id, amount, count)
SELECT user_id, date_trunc('month', transaction_date)::date, transaction_type, category_id, sum(amount), count(*)
  FROM transactions
 GROUP BY 1, 2, 3, 4;
