-- Questions whose answer has parts (docs/content.md, "Matching"): a matching's
-- rows, each answered with one of the question's choices (the options the rows
-- share). An order's rows are its positions; a gap match's, its gaps.
CREATE TABLE question_parts (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     BIGINT  NOT NULL REFERENCES questions(id),
    part_number     INTEGER NOT NULL,
    text            TEXT    NOT NULL,
    PRIMARY KEY (question_id, part_number)
);

-- The pairs of a part and a choice that its scoring names: those of the correct
-- response (is_correct) and those its mapping values (mapped_value; NULL: the
-- question's map_default). Marked as QTI marks directed pairs: match_correct
-- gives the maximum for exactly the correct pairs, map_response the sum of the
-- answered pairs' values within the bounds.
CREATE TABLE pair_keys (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     BIGINT  NOT NULL REFERENCES questions(id),
    part_number     INTEGER NOT NULL,
    choice_order    INTEGER NOT NULL,
    is_correct      BOOLEAN NOT NULL,
    mapped_value    DOUBLE PRECISION,
    PRIMARY KEY (question_id, part_number, choice_order)
);
