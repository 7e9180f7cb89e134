-- Answers are written a result at a time (an upload writes 50 at once) and read a
-- result at a time (a result's answers, a task's answer). Keyed question-first, a
-- result's 50 answers landed on 50 different pages of each of two indexes, all
-- written again at every commit (about 120 WAL pages an upload); keyed
-- result-first they land together at the end of the area's range. The Answers
-- feed is paged in this order too (store::read::plan, stored key order).
-- SQLite cannot change a primary key in place: the table is rebuilt.
CREATE TABLE answers_keyed_by_result (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL REFERENCES questions(id),
    result_id       INTEGER NOT NULL REFERENCES results(id),
    occurrence      INTEGER NOT NULL,
    block_number    INTEGER NOT NULL,
    question_number INTEGER NOT NULL,
    max_score       INTEGER NOT NULL,
    actual_score    INTEGER,
    revision        INTEGER NOT NULL,
    media_type      TEXT    NOT NULL,
    -- Last, so that reading the other columns never walks a large image's pages.
    content         BLOB    NOT NULL,
    PRIMARY KEY (customer_id, result_id, question_id, occurrence, block_number)
);
INSERT INTO answers_keyed_by_result
    (customer_id, question_id, result_id, occurrence, block_number, question_number,
     max_score, actual_score, revision, media_type, content)
SELECT customer_id, question_id, result_id, occurrence, block_number, question_number,
       max_score, actual_score, revision, media_type, content
FROM answers ORDER BY customer_id, result_id, question_id, occurrence, block_number;
DROP TABLE answers;
ALTER TABLE answers_keyed_by_result RENAME TO answers;
