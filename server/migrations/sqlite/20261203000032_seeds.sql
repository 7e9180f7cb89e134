-- Seeded scripts (standardisation; docs/marking-quality.md, "Seeds"). A lead
-- marker gives a marked script definitive marks and reasons (`seeds`,
-- `seed_scores`); each marker of its question is then served his own copy of
-- it now and then among real tasks (`seed_copies`): a result and a task of
-- their own, drawn from the same sequences, which `seed_for` keeps out of
-- every other reader's rows, counts, figures and exports. Nothing changes for a
-- question whose plan serves no seeds.

ALTER TABLE results ADD COLUMN seed_for TEXT;
ALTER TABLE scoring_tasks ADD COLUMN seed_for TEXT;
-- The few copies of an area: what every read of a marker's sets leaves out.
CREATE INDEX results_seed_copies ON results (customer_id, seed_for) WHERE seed_for IS NOT NULL;

-- Per cent of a marker's scripts of the question after which he is served a
-- seed, and the difference from the definitive total within which his marking
-- of a seed is in line.
ALTER TABLE marking_plans ADD COLUMN seed_rate INTEGER NOT NULL DEFAULT 0 CHECK (seed_rate BETWEEN 0 AND 100);
ALTER TABLE marking_plans ADD COLUMN seed_tolerance INTEGER NOT NULL DEFAULT 0 CHECK (seed_tolerance >= 0);

-- A script a lead marked definitively: the task it copies and its marks.
CREATE TABLE seeds (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    result_id       INTEGER NOT NULL,
    rubric_id       INTEGER NOT NULL REFERENCES rubrics(id),
    -- The sum of its definitive dimension scores.
    score           INTEGER NOT NULL,
    reasons         TEXT    NOT NULL,
    created_by      TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    -- No reference to the task: a purge removes a result's seeds after its
    -- tasks, having found the seeds' copies through them.
    UNIQUE (question_id, result_id)
);
CREATE INDEX seeds_by_question ON seeds (customer_id, question_id, id);

CREATE TABLE seed_scores (
    seed_id         INTEGER NOT NULL REFERENCES seeds(id),
    dimension_order INTEGER NOT NULL,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    score           INTEGER NOT NULL,
    reason          TEXT,
    PRIMARY KEY (seed_id, dimension_order)
);

-- A seed served to a marker: the copy's result, and once he scored it, his
-- total and its difference from the definitive one.
CREATE TABLE seed_copies (
    result_id       INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    seed_id         INTEGER NOT NULL REFERENCES seeds(id),
    question_id     INTEGER NOT NULL,
    marker          TEXT    NOT NULL,
    served_at       INTEGER NOT NULL,
    marked_at       INTEGER,
    score           INTEGER,
    deviation       INTEGER,
    UNIQUE (seed_id, marker)
);
CREATE INDEX seed_copies_by_marker ON seed_copies (customer_id, question_id, marker, served_at);

-- A seed copy's task is counted nowhere: the counts are every reader's.
DROP TRIGGER scoring_tasks_counted_on_insert;
DROP TRIGGER scoring_tasks_counted_on_delete;
DROP TRIGGER scoring_tasks_counted_on_update;

CREATE TRIGGER scoring_tasks_counted_on_insert AFTER INSERT ON scoring_tasks
    WHEN NEW.seed_for IS NULL
BEGIN
    INSERT INTO scoring_task_counts (customer_id, group_id, status, shard, tasks)
    VALUES (NEW.customer_id, COALESCE(NEW.group_id, 0), NEW.status, NEW.result_id % 8, 1)
    ON CONFLICT (customer_id, group_id, status, shard) DO UPDATE SET tasks = tasks + 1;
END;

CREATE TRIGGER scoring_tasks_counted_on_delete AFTER DELETE ON scoring_tasks
    WHEN OLD.seed_for IS NULL
BEGIN
    UPDATE scoring_task_counts SET tasks = tasks - 1
    WHERE customer_id = OLD.customer_id AND group_id = COALESCE(OLD.group_id, 0)
      AND status = OLD.status AND shard = OLD.result_id % 8;
END;

CREATE TRIGGER scoring_tasks_counted_on_update AFTER UPDATE ON scoring_tasks
    WHEN NEW.seed_for IS NULL AND (OLD.status IS NOT NEW.status OR OLD.group_id IS NOT NEW.group_id
      OR OLD.customer_id IS NOT NEW.customer_id OR OLD.result_id IS NOT NEW.result_id)
BEGIN
    UPDATE scoring_task_counts SET tasks = tasks - 1
    WHERE customer_id = OLD.customer_id AND group_id = COALESCE(OLD.group_id, 0)
      AND status = OLD.status AND shard = OLD.result_id % 8;
    INSERT INTO scoring_task_counts (customer_id, group_id, status, shard, tasks)
    VALUES (NEW.customer_id, COALESCE(NEW.group_id, 0), NEW.status, NEW.result_id % 8, 1)
    ON CONFLICT (customer_id, group_id, status, shard) DO UPDATE SET tasks = tasks + 1;
END;
