-- Paid EMIs and matched debits (a debit of the transaction book marked as an EMI's payment shows
-- once, as the EMI: matched_to names the EMI entry and the ledger leaves the debit out).
ALTER TABLE ledger_entries ADD COLUMN matched_to text;
-- [{ "n": 3, "paidOn": "YYYY-MM-DD", "amount": paise, "transactionId": "…" | null }]
ALTER TABLE ledger_loans ADD COLUMN paid jsonb NOT NULL DEFAULT '[]';
