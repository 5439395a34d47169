-- Issue 31: each user's system categories by key (the transactions projection's own copy, from
-- CategoriesSeeded), so an EMI matched to a debit puts the debit in the user's "Loan EMI"
-- category, and a released match takes it out again, without reading another read model.
CREATE TABLE transaction_system_categories (
  user_id text NOT NULL,
  key text NOT NULL,
  category_id uuid NOT NULL,
  PRIMARY KEY (user_id, key)
);
