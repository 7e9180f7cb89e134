-- What a snapshot fixes (spec, "AssessmentSnapshot"): its questions in order, and
-- each choice question's choices in the snapshot's order. Uploads are checked and
-- scored against these rows; the snapshot XML (data_xml) is written from them once.
-- A question asks for its choices to be shuffled in snapshots (QTI's `shuffle`).
ALTER TABLE questions ADD COLUMN shuffle_choices BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE snapshot_questions (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    snapshot_id     INTEGER NOT NULL REFERENCES assessment_snapshots(id),
    -- 1, 2, ...: the upload file's QuestionOrderNumber.
    position        INTEGER NOT NULL,
    question_id     BIGINT  NOT NULL REFERENCES questions(id),
    PRIMARY KEY (snapshot_id, position)
);

CREATE TABLE snapshot_choices (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    snapshot_id     INTEGER NOT NULL,
    position        INTEGER NOT NULL,
    -- 1, 2, ...: the upload file's ChoiceOrderNumber.
    choice_position INTEGER NOT NULL,
    -- The choice as the question numbers it (choices.choice_order).
    choice_order    INTEGER NOT NULL,
    PRIMARY KEY (snapshot_id, position, choice_position),
    FOREIGN KEY (snapshot_id, position) REFERENCES snapshot_questions(snapshot_id, position)
);
