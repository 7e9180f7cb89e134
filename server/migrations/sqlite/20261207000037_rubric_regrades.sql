-- Regrades after a rubric change (our extension, RubricRegrades;
-- docs/marking-quality.md, "Regrading after a rubric change"): who moved the
-- scripts marked with a question's old rubric onto its new one, why, with which
-- map of each dimension's scores, and how many. The old rubric stays, named here.
CREATE TABLE rubric_regrades (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL REFERENCES questions(id),
    from_rubric_id  INTEGER NOT NULL REFERENCES rubrics(id),
    to_rubric_id    INTEGER NOT NULL REFERENCES rubrics(id),
    reason          TEXT    NOT NULL,
    -- model::regrade::Regrade::describe: "1 Idea: 0→0 1→1 2→1 3→2; 2 Language: kept".
    score_maps      TEXT    NOT NULL,
    -- The ScoringResults counted and confirmed, and those moved so far (each
    -- group of them in its own transaction).
    scripts         INTEGER NOT NULL,
    regraded        INTEGER NOT NULL,
    -- Of them, the scripts whose total changed, and the results rescored.
    totals_changed  INTEGER NOT NULL,
    results_rescored INTEGER NOT NULL,
    markings        INTEGER NOT NULL,
    seeds           INTEGER NOT NULL,
    requested_by    TEXT    NOT NULL,
    requested_at    INTEGER NOT NULL,
    completed_at    INTEGER
);
CREATE INDEX rubric_regrades_by_question ON rubric_regrades (customer_id, question_id, id);
CREATE INDEX rubric_regrades_by_from ON rubric_regrades (from_rubric_id);
CREATE INDEX rubric_regrades_by_to ON rubric_regrades (to_rubric_id);
