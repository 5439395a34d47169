-- Audit grants read model (issue 14): who may read whose account, until when. Listing and the
-- auditor's account switcher read it; the access check itself folds the grant's stream.
CREATE TABLE audit_grants (
  grant_id text PRIMARY KEY,
  owner_user_id text NOT NULL,
  owner_name text NOT NULL,
  email text NOT NULL,
  expires_at timestamptz NOT NULL,
  as_of_limit timestamptz,
  granted_at timestamptz NOT NULL,
  revoked_at timestamptz,
  -- Stream version of the last applied event: makes a redelivered event a no-op.
  version integer NOT NULL
);

CREATE INDEX audit_grants_owner ON audit_grants (owner_user_id);
CREATE INDEX audit_grants_email ON audit_grants (email);
