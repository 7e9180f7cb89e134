-- Double-blind second marking (our extension: MarkingPlans, Markings,
-- MarkingScores, SecondMarkingQueue; docs/marking-quality.md, "Double-blind
-- second marking"). Nothing here changes for a question without a plan.

-- An administrator's plan for a question: the share of its tasks marked twice,
-- the difference of totals within which two markings agree, and the rule.
CREATE TABLE marking_plans (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER  NOT NULL REFERENCES questions(id),
    share           INTEGER NOT NULL CHECK (share BETWEEN 0 AND 100),
    tolerance       INTEGER NOT NULL CHECK (tolerance >= 0),
    rule            TEXT    NOT NULL CHECK (rule IN ('resolution', 'mean', 'higher')),
    modified_at     INTEGER NOT NULL,
    PRIMARY KEY (customer_id, question_id)
);

-- One marker's marking of a double-marked task, in its round: 1 the first
-- marking (kept when the first marker set the task to 3), 2 the second, 3 the
-- resolution. A marker sees only his own (feeds/marking/markings.rs).
CREATE TABLE markings (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    result_id       INTEGER NOT NULL,
    round           INTEGER NOT NULL CHECK (round IN (1, 2, 3)),
    rubric_id       INTEGER NOT NULL REFERENCES rubrics(id),
    marked_by       TEXT    NOT NULL,
    -- The sum of its dimension scores, once submitted.
    score           INTEGER,
    comments        TEXT,
    is_submitted    BOOLEAN NOT NULL,
    started_at      INTEGER NOT NULL,
    submitted_at    INTEGER ,
    modified_at     INTEGER NOT NULL,
    FOREIGN KEY (question_id, result_id) REFERENCES scoring_tasks(question_id, result_id)
);
-- One marking per round of a task: of two markers claiming a round, one does.
CREATE UNIQUE INDEX markings_per_round ON markings (question_id, result_id, round);
-- A marker's own markings, newest last.
CREATE INDEX markings_by_marker ON markings (customer_id, marked_by, id);
-- A purge's.
CREATE INDEX markings_by_result ON markings (customer_id, result_id);

-- A marking's score of each dimension of its rubric. Its marker and result are
-- kept beside it: a marker reads only his own rows, a purge removes a result's.
CREATE TABLE marking_scores (
    marking_id      INTEGER NOT NULL REFERENCES markings(id),
    dimension_order INTEGER NOT NULL,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    result_id       INTEGER NOT NULL,
    marked_by       TEXT    NOT NULL,
    score           SMALLINT,
    comment         TEXT,
    PRIMARY KEY (marking_id, dimension_order)
);
CREATE INDEX marking_scores_by_marker ON marking_scores (customer_id, marked_by, marking_id);
CREATE INDEX marking_scores_by_result ON marking_scores (customer_id, result_id);

-- The tasks that wait for a marking (round 2 or 3), until the final mark is
-- decided; the plan's tolerance and rule are fixed here when the task is chosen.
-- Who marked the earlier rounds is kept so that nobody marks a task twice; it is
-- never served.
CREATE TABLE marking_queue (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    result_id       INTEGER NOT NULL,
    round           INTEGER NOT NULL CHECK (round IN (2, 3)),
    tolerance       INTEGER NOT NULL,
    rule            TEXT    NOT NULL,
    first_marker    TEXT    NOT NULL,
    second_marker   TEXT,
    -- Who has taken the round, until he submits it.
    claimed_by      TEXT,
    queued_at       INTEGER NOT NULL,
    PRIMARY KEY (question_id, result_id),
    FOREIGN KEY (question_id, result_id) REFERENCES scoring_tasks(question_id, result_id)
);
CREATE INDEX marking_queue_by_area ON marking_queue (customer_id, question_id, result_id);
CREATE INDEX marking_queue_by_result ON marking_queue (customer_id, result_id);
