-- Issue 27: whether the loan's EMIs are auto-debited (a past EMI then counts as paid on its due
-- date unless marked otherwise) and whether GST is charged on top of the processing fee. Loans
-- created before both were asked read as on: their EMIs were counted paid on their due dates and
-- their APR always carried the fee's GST.
ALTER TABLE loans ADD COLUMN emis_auto_debited boolean NOT NULL DEFAULT true;
ALTER TABLE loans ADD COLUMN processing_fee_gst boolean NOT NULL DEFAULT true;
