-- Answer groups (our extension; docs/marking-quality.md, "Answer groups"): each
-- typed answer carries the key of its normalised text (model::answer_groups),
-- written with the answer and copied onto its scoring task. A marker marks one
-- script and applies it to the open tasks alike (`answer_group_markings`);
-- which tasks it marked is kept (`answer_group_members`), for the lead marker.
ALTER TABLE answers ADD COLUMN answer_key TEXT;
ALTER TABLE scoring_tasks ADD COLUMN answer_key TEXT;
-- A group's tasks by status, then ResultID: its open members are one range
-- of it, read in order, whatever number of its tasks are already scored (so
-- that the read does not slow down as the marking gets on). Only typed
-- answers' tasks are in it.
CREATE INDEX scoring_tasks_by_answer_key ON scoring_tasks (customer_id, question_id, answer_key, status, result_id)
    WHERE answer_key IS NOT NULL;
-- The typed answers written before this migration: NFKC is not SQL, so
-- Store::migrate keys them once. Only they are in this index: empty once done,
-- and no answer written since ever enters it.
CREATE INDEX answers_awaiting_key ON answers (customer_id, result_id, question_id)
    WHERE answer_key IS NULL AND media_type LIKE 'text/plain%';

CREATE TABLE answer_group_markings (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    -- The script marked, whose marks were applied.
    result_id       INTEGER NOT NULL,
    rubric_id       INTEGER NOT NULL REFERENCES rubrics(id),
    marker          TEXT    NOT NULL,
    marked_at       INTEGER NOT NULL,
    -- The tasks marked with it, and those alike still open after it (beyond
    -- the limit of one application).
    members         INTEGER NOT NULL,
    remaining       INTEGER NOT NULL
);
CREATE INDEX answer_group_markings_by_marker ON answer_group_markings (customer_id, marker, id);
CREATE INDEX answer_group_markings_by_result ON answer_group_markings (result_id);

CREATE TABLE answer_group_members (
    marking_id      INTEGER NOT NULL,
    result_id       INTEGER NOT NULL,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    -- The marking's marker, so that a scorer's reads see his own alone.
    marker          TEXT    NOT NULL,
    PRIMARY KEY (marking_id, result_id)
);
CREATE INDEX answer_group_members_by_result ON answer_group_members (result_id);
