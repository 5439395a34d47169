-- Embedded mode keeps sent mail here and serves it at /dev/mailbox.
CREATE TABLE IF NOT EXISTS mail_outbox (
  id text PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  seq bigserial
);
CREATE INDEX IF NOT EXISTS mail_outbox_seq ON mail_outbox (seq DESC);
