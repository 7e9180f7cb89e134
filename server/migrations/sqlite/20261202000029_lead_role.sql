-- A fourth role, the lead marker (docs/marking-quality.md). SQLite cannot change
-- a CHECK constraint in place: the table is made again with the new one. No
-- other table refers to accounts, and it has no index but its UNIQUE name.
CREATE TABLE accounts_with_lead (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER REFERENCES customers(id),  -- NULL: server administrator
    username        TEXT    NOT NULL UNIQUE,
    password_hash   TEXT    NOT NULL,
    role            TEXT    NOT NULL CHECK (role IN ('admin', 'scorer', 'coordinator', 'lead')),
    created_at      INTEGER NOT NULL
);
INSERT INTO accounts_with_lead (id, customer_id, username, password_hash, role, created_at)
    SELECT id, customer_id, username, password_hash, role, created_at FROM accounts;
DROP TABLE accounts;
ALTER TABLE accounts_with_lead RENAME TO accounts;
