-- The loans' payments (EMIs, part-payments, foreclosures) by user and day: the spending report
-- reads a period's loan payments apart from the book's debits (issue 31). Without it a month's
-- read intersected the user's date range of every entry with every loan entry (a bitmap AND of
-- ~800 and ~1,100 rows for 6); this index holds the few loan-payment rows alone.
CREATE INDEX ledger_entries_loan_payments ON ledger_entries (user_id, entry_date)
  WHERE side = 'D' AND kind <> 'transaction';
