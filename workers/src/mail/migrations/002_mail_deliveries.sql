-- One row per mailed event: the mail processor claims the event id here before sending, so a
-- replayed event or a re-delivered job never mails twice (the queue's jobId only de-duplicates
-- jobs still waiting).
CREATE TABLE IF NOT EXISTS mail_deliveries (
  event_id text PRIMARY KEY,
  kind text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);
