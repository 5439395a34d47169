-- Issue 30 item 11: a fingerprint key is stored as its SHA-256 digest (32 bytes), not as its text
-- (date, amount, the whole narration and more: a hundred bytes and up). A 50,000-row commit
-- writes 100,000 keys; the primary key's B-tree over the long texts made that write the slowest
-- part of the imports read model. Who reads the table (`knownFingerprints`) hashes the same way.
ALTER TABLE import_fingerprints ADD COLUMN digest bytea;
UPDATE import_fingerprints SET digest = sha256(convert_to(key, 'UTF8'));
ALTER TABLE import_fingerprints DROP CONSTRAINT import_fingerprints_pkey;
ALTER TABLE import_fingerprints DROP COLUMN key;
ALTER TABLE import_fingerprints ALTER COLUMN digest SET NOT NULL;
ALTER TABLE import_fingerprints ADD PRIMARY KEY (account_id, digest);
