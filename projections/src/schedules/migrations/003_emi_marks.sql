-- Issue 27: EMIs are marked paid, paid up to a date, matched to a debit, missed, and any mark
-- can be undone, so a loan keeps its marks by id (the mark as the domain's EmiMark). A mark
-- stored before marks had ids gets the id the domain's upcast gives it (legacyMarkId).
CREATE TABLE loan_emi_marks (
  loan_id uuid NOT NULL,
  mark_id text NOT NULL,
  user_id text NOT NULL,
  -- Order in which the marks were made.
  seq integer NOT NULL,
  mark jsonb NOT NULL,
  -- The matched debit: a debit is matched to one EMI at most, and its deletion releases it.
  transaction_id text,
  PRIMARY KEY (loan_id, mark_id)
);
CREATE INDEX loan_emi_marks_by_transaction ON loan_emi_marks (user_id, transaction_id)
  WHERE transaction_id IS NOT NULL;

INSERT INTO loan_emi_marks (loan_id, mark_id, user_id, seq, mark, transaction_id)
SELECT p.loan_id, m.mark_id, p.user_id,
       row_number() OVER (PARTITION BY p.loan_id ORDER BY p.payment_number),
       CASE WHEN p.transaction_id IS NULL
         THEN jsonb_build_object('kind', 'paid', 'markId', m.mark_id, 'paymentNumber', p.payment_number,
                                 'paidOn', to_char(p.paid_on, 'YYYY-MM-DD'), 'amount', (p.amount * 100)::bigint)
         ELSE jsonb_build_object('kind', 'matched', 'markId', m.mark_id, 'paymentNumber', p.payment_number,
                                 'transactionId', p.transaction_id, 'paidOn', to_char(p.paid_on, 'YYYY-MM-DD'),
                                 'amount', (p.amount * 100)::bigint)
       END,
       p.transaction_id
  FROM loan_paid_emis p,
       LATERAL (SELECT p.loan_id::text || '-' || p.payment_number || '-' || to_char(p.paid_on, 'YYYY-MM-DD') AS mark_id) m;
DROP TABLE loan_paid_emis;

-- The day the house was completed (pre-EMI interest is deducted in fifths from its year).
ALTER TABLE loan_schedules ADD COLUMN construction_completed_on date;
