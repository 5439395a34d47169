-- Pending account erasures (issue 32): one row per account whose owner asked to have it erased
-- and has not taken it back. The banner during the cooling-off period reads it, and the erasure
-- job finds the due ones here (it checks the stream again before erasing). The row goes with
-- the cancellation, and with the account.
CREATE TABLE account_erasures (
  user_id text PRIMARY KEY,
  requested_at timestamptz NOT NULL,
  erase_after timestamptz NOT NULL,
  -- Stream version of the last applied event: makes a redelivered event a no-op.
  version integer NOT NULL
);

CREATE INDEX account_erasures_due ON account_erasures (erase_after);
