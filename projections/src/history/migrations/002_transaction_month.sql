-- As-of answers of one ledger month replay only the transactions ever dated in that month
-- (history/queries.ts, userEventsOfMonthUpTo): this finds them without reading the user's other
-- events. The month a recording or an edit put the transaction in (an edit that kept the date: none).
CREATE INDEX history_events_txn_month_idx ON history_events
  (user_id, left(coalesce(data->>'transactionDate', data#>>'{changes,transactionDate}'), 7), recorded_at)
  WHERE type IN ('TransactionRecorded', 'TransactionUpdated');
