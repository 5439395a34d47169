-- Reminder mail choices (issue 31), one row per user who ever set them; a user without a row has
-- the defaults (every kind off, 3 days before).
CREATE TABLE notification_preferences (
  user_id text PRIMARY KEY,
  emi_due boolean NOT NULL,
  recurring_due boolean NOT NULL,
  days_before integer NOT NULL,
  updated_at timestamptz NOT NULL,
  version integer NOT NULL
);
