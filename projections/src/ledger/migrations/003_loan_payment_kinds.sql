-- A loan's part-payments and foreclosure are entries of their own kind, not EMIs (issue 27): the
-- EMI card counts EMIs only, and their particulars read "Part-payment — <loan>".
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
  CHECK (kind IN ('transaction', 'emi', 'prepayment', 'foreclosure'));
-- Entries written before: the same rows the fold now writes (period counts stay: loan payments
-- were and are counted together).
UPDATE ledger_entries
   SET kind = 'prepayment', particulars = 'Part-payment — ' || substr(particulars, length('Part-payment · ') + 1)
 WHERE kind = 'emi' AND loan_id IS NOT NULL AND particulars LIKE 'Part-payment · %';
UPDATE ledger_entries
   SET kind = 'foreclosure', particulars = 'Foreclosure — ' || substr(particulars, length('Foreclosure · ') + 1)
 WHERE kind = 'emi' AND loan_id IS NOT NULL AND particulars LIKE 'Foreclosure · %';
