-- A claim is a lease until the mail is sent: a send that failed without releasing its claim (the
-- database cut between the claim and the release) is taken again by a retry once the lease is old,
-- instead of being skipped as "already sent". Rows from before were sent.
ALTER TABLE mail_deliveries ADD COLUMN IF NOT EXISTS sent boolean NOT NULL DEFAULT true;
ALTER TABLE mail_deliveries ADD COLUMN IF NOT EXISTS claimed_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE mail_deliveries ALTER COLUMN sent SET DEFAULT false;
ALTER TABLE mail_deliveries ALTER COLUMN sent_at DROP NOT NULL;
ALTER TABLE mail_deliveries ALTER COLUMN sent_at DROP DEFAULT;
