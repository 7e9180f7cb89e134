-- The item analysis of each assessment as last computed (docs/statistics.md, the
-- AssessmentStatistics function): one row per question, replaced whole each time
-- the function computes the assessment's figures.
CREATE TABLE item_statistics (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    assessment_id   BIGINT  NOT NULL REFERENCES assessments(id),
    question_id     BIGINT  NOT NULL REFERENCES questions(id),
    position        INTEGER NOT NULL,
    max_score       INTEGER NOT NULL,
    n               INTEGER NOT NULL,
    facility        DOUBLE PRECISION NOT NULL,
    discrimination  DOUBLE PRECISION,
    flags           TEXT    NOT NULL,
    computed_at     BIGINT  NOT NULL,
    PRIMARY KEY (customer_id, assessment_id, question_id)
);
