-- Budget-crossed alerts (issue 31, once the budgets read model existed): off until opted into.
ALTER TABLE notification_preferences ADD COLUMN budget_crossed boolean NOT NULL DEFAULT false;
