-- The key that signs printable links (auth::links). In the database rather than a
-- process's memory, so that every process behind a load balancer opens the links
-- of the others; made by the first process that needs it.
CREATE TABLE signing_keys (
    id              INTEGER PRIMARY KEY,
    secret          BYTEA   NOT NULL,
    created_at      BIGINT  NOT NULL
);
