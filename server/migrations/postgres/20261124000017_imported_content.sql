-- Content imported from QTI packages (docs/content.md).
--
-- How a question's answers are marked automatically: 'service' (the service's own
-- rules, model::choice_scoring: the demo content and everything before imports),
-- or QTI's 'match_correct' (the maximum for exactly the key, else 0) and
-- 'map_response' (the sum of the mapped values of what was answered, unmapped
-- answers worth map_default, kept within map_lower and map_upper).
ALTER TABLE questions ADD COLUMN scoring_rule TEXT NOT NULL DEFAULT 'service'
    CHECK (scoring_rule IN ('service', 'match_correct', 'map_response'));
ALTER TABLE questions ADD COLUMN map_default DOUBLE PRECISION;
ALTER TABLE questions ADD COLUMN map_lower DOUBLE PRECISION;
ALTER TABLE questions ADD COLUMN map_upper DOUBLE PRECISION;
-- A choice's value under map_response (NULL: map_default).
ALTER TABLE choices ADD COLUMN mapped_value DOUBLE PRECISION;
-- QTI's `fixed`: the choice keeps its place when the others are shuffled.
ALTER TABLE choices ADD COLUMN fixed BOOLEAN NOT NULL DEFAULT FALSE;

-- The accepted answers of a text-entry question, in order: the first that an
-- answer equals (case-sensitively or not) gives its mapped value, or the maximum
-- when it has none (a match_correct key).
CREATE TABLE text_keys (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     BIGINT  NOT NULL REFERENCES questions(id),
    key_order       INTEGER NOT NULL,
    text            TEXT    NOT NULL,
    case_sensitive  BOOLEAN NOT NULL,
    mapped_value    DOUBLE PRECISION,
    PRIMARY KEY (question_id, key_order)
);

-- Where imported content came from, so that importing a package again changes
-- nothing and a changed item becomes a new revision: per area, an assessment's or
-- a question's key in its package, the row it became last, and the fingerprint of
-- what was imported into it.
CREATE TABLE content_sources (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    kind            TEXT    NOT NULL CHECK (kind IN ('assessment', 'question')),
    source_key      TEXT    NOT NULL,
    target_id       BIGINT  NOT NULL,
    fingerprint     TEXT    NOT NULL,
    imported_at     BIGINT  NOT NULL,
    PRIMARY KEY (customer_id, kind, source_key)
);
