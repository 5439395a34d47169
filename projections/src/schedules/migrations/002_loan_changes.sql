-- Loans change after they start (prepayments, rate resets, EMI overrides, foreclosure): a revised
-- schedule also has prepayment, foreclosure and pre-EMI interest rows, which share the number of
-- the EMI before them, so rows are keyed by their place in the schedule (seq).
ALTER TABLE loan_schedule_rows ADD COLUMN seq integer;
UPDATE loan_schedule_rows SET seq = payment_number;
ALTER TABLE loan_schedule_rows ALTER COLUMN seq SET NOT NULL;
ALTER TABLE loan_schedule_rows DROP CONSTRAINT loan_schedule_rows_pkey;
ALTER TABLE loan_schedule_rows ADD PRIMARY KEY (loan_id, seq);
ALTER TABLE loan_schedule_rows ADD COLUMN kind text NOT NULL DEFAULT 'emi'
  CHECK (kind IN ('emi', 'prepayment', 'foreclosure', 'pre-emi-interest'));
-- Prepayment or foreclosure charge; emi = principal + interest + gst + charge.
ALTER TABLE loan_schedule_rows ADD COLUMN charge numeric(14, 2) NOT NULL DEFAULT 0;
-- Annual rate in force for the row (revised schedules only).
ALTER TABLE loan_schedule_rows ADD COLUMN annual_rate numeric;

ALTER TABLE loan_schedules ADD COLUMN charges numeric(14, 2) NOT NULL DEFAULT 0;
-- Date of the last row: the last EMI or the foreclosure (Completed after it).
ALTER TABLE loan_schedules ADD COLUMN closed_on date;
UPDATE loan_schedules h SET closed_on = (SELECT max(r.emi_date) FROM loan_schedule_rows r WHERE r.loan_id = h.loan_id);

-- EMIs marked paid; they survive new schedule versions (matched by EMI number).
CREATE TABLE loan_paid_emis (
  loan_id uuid NOT NULL,
  payment_number integer NOT NULL,
  user_id text NOT NULL,
  paid_on date NOT NULL,
  amount numeric(14, 2) NOT NULL,
  -- A debit of the user's transaction book this payment was matched to.
  transaction_id text,
  PRIMARY KEY (loan_id, payment_number)
);
