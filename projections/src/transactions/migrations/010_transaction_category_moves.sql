-- Issue 31: which events of other streams re-categorised a transaction (a rule applied, a
-- category merged or deleted, an EMI matched or released), by their log position, so the
-- transaction's own History shows them beside its own events. Written by the statement that
-- moves the row (months.ts `recategorise`); an event that left the row's category as it was
-- is not recorded.
CREATE TABLE transaction_category_moves (
  user_id text NOT NULL,
  transaction_id uuid NOT NULL,
  position text NOT NULL,
  PRIMARY KEY (user_id, transaction_id, position)
);
