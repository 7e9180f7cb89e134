-- Flags to a lead marker (our extension, Flags and FlagAnswers;
-- docs/marking-quality.md, "Flags"): a marker flags a task with a reason and a
-- note, and a lead marker answers it once. Neither is ever deleted but with the
-- result they belong to (a purge).
CREATE TABLE flags (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER  NOT NULL,
    result_id       INTEGER NOT NULL,
    reason          TEXT    NOT NULL
        CHECK (reason IN ('unreadable', 'malpractice', 'off-rubric', 'second-look')),
    note            TEXT    NOT NULL,
    raised_by       TEXT    NOT NULL,
    raised_at       INTEGER  NOT NULL,
    -- Until it is answered.
    is_open         BOOLEAN NOT NULL,
    FOREIGN KEY (question_id, result_id) REFERENCES scoring_tasks(question_id, result_id)
);
-- A task has at most one open flag.
CREATE UNIQUE INDEX flags_open_per_task ON flags (question_id, result_id) WHERE is_open;
-- The lead's desk: an area's open flags, oldest first.
CREATE INDEX flags_by_area ON flags (customer_id, is_open, id);
-- A task's flags, and a purge's.
CREATE INDEX flags_by_result ON flags (customer_id, result_id, question_id);

-- The lead marker's answer to a flag: one per flag. The flag's result is kept
-- beside it so that a purge removes answers as it removes the result's other rows.
CREATE TABLE flag_answers (
    flag_id         INTEGER NOT NULL PRIMARY KEY REFERENCES flags(id),
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    result_id       INTEGER NOT NULL,
    -- released: the task went back to 0; taken-over: it stays locked, the lead's.
    outcome         TEXT    NOT NULL CHECK (outcome IN ('released', 'taken-over')),
    note            TEXT    NOT NULL,
    answered_by     TEXT    NOT NULL,
    answered_at     INTEGER  NOT NULL
);
CREATE INDEX flag_answers_by_result ON flag_answers (customer_id, result_id);
