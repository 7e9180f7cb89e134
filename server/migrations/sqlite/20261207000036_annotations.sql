-- Annotations on a script (our extension, Annotations; docs/marking-quality.md,
-- "Annotations"): a marker's pen strokes, highlights, tick and cross stamps and
-- notes on one answer block of a task he marks. On a scan they are placed by
-- points in the image's own pixels; on a typed answer by a range of its
-- characters. Each is its marker's: a scorer reads and writes only his own.
CREATE TABLE annotations (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    result_id       INTEGER NOT NULL,
    occurrence      INTEGER NOT NULL,
    block_number    INTEGER NOT NULL,
    kind            TEXT    NOT NULL
        CHECK (kind IN ('pen', 'highlighter', 'tick', 'cross', 'note')),
    -- On a scan: "x,y x,y …" (model::annotations); on a typed answer, null.
    points          TEXT,
    -- On a typed answer: characters [text_start, text_end); on a scan, null.
    text_start      INTEGER,
    text_end        INTEGER,
    -- A note's words, or a comment on a mark.
    note            TEXT,
    marked_by       TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL,
    CHECK ((points IS NULL) <> (text_start IS NULL)),
    CHECK ((text_start IS NULL) = (text_end IS NULL)),
    FOREIGN KEY (question_id, result_id) REFERENCES scoring_tasks(question_id, result_id),
    FOREIGN KEY (customer_id, result_id, question_id, occurrence, block_number)
        REFERENCES answers(customer_id, result_id, question_id, occurrence, block_number)
);
-- A task's annotations by marker (what the scoring view reads), and a purge's.
CREATE INDEX annotations_by_result ON annotations (customer_id, result_id, question_id, marked_by);
-- The child key of the task's reference: without it, each task a purge deletes
-- would look for its annotations through the whole table.
CREATE INDEX annotations_by_task ON annotations (question_id, result_id);
