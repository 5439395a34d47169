-- The current repayment schedule of each live loan: a header with the totals and version, and
-- its rows. Earlier versions stay in the event log (ScheduleGenerated), not here.
CREATE TABLE loan_schedules (
  loan_id uuid PRIMARY KEY,
  user_id text NOT NULL,
  version integer NOT NULL,
  reason text NOT NULL,
  principal numeric(14, 2) NOT NULL,
  interest numeric(14, 2) NOT NULL,
  gst numeric(14, 2) NOT NULL,
  emi numeric(14, 2) NOT NULL,
  number_of_payments integer NOT NULL,
  generated_at timestamptz NOT NULL
);

CREATE TABLE loan_schedule_rows (
  loan_id uuid NOT NULL,
  payment_number integer NOT NULL,
  user_id text NOT NULL,
  version integer NOT NULL,
  emi_date date NOT NULL,
  principal numeric(14, 2) NOT NULL,
  interest numeric(14, 2) NOT NULL,
  gst numeric(14, 2) NOT NULL,
  emi numeric(14, 2) NOT NULL,
  remaining_principal numeric(14, 2) NOT NULL,
  PRIMARY KEY (loan_id, payment_number)
);

-- "Balance after the last instalment due on or before today" (loan stats) is one probe per loan.
CREATE INDEX loan_schedule_rows_by_date ON loan_schedule_rows (loan_id, emi_date) INCLUDE (remaining_principal);
