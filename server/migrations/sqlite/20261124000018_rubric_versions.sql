-- Rubrics have versions (docs/content.md, "Rubrics"): a rubric that a ScoringResult
-- used is never changed under it; a new rubric replaces it for new scoring, and
-- the old one stays, with `replaced_at` set, for the ScoringResults made with it.
-- A question so has many rubrics and at most one current one: the UNIQUE on
-- question_id becomes a partial unique index.
--
-- SQLite cannot drop a constraint, so the table is made again with its rows and
-- IDs, inside sqlx's transaction, where foreign keys cannot be switched off: they
-- are deferred instead. Dropping the table leaves the rows that reference it
-- (dimensions, scoring results, levels) waiting; the same IDs inserted again
-- satisfy them before the commit checks. The other tables' references name
-- `rubrics` and so name the new table.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE rubrics_before_18 AS SELECT * FROM rubrics;
DROP TABLE rubrics;
-- AUTOINCREMENT, unlike before: a deleted (unused) rubric's ID is never given to
-- another, as PostgreSQL's identity never does.
CREATE TABLE rubrics (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL REFERENCES questions(id),
    name            TEXT    NOT NULL,
    instructions    TEXT,
    max_score       INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL,
    replaced_at     INTEGER
);
INSERT INTO rubrics (id, customer_id, question_id, name, instructions, max_score, created_at, modified_at)
    SELECT id, customer_id, question_id, name, instructions, max_score, created_at, modified_at
    FROM rubrics_before_18;
DROP TABLE rubrics_before_18;
CREATE UNIQUE INDEX rubrics_current ON rubrics (question_id) WHERE replaced_at IS NULL;
CREATE INDEX rubrics_by_question ON rubrics (customer_id, question_id);
