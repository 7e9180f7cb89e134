-- The comment bank (a ScoreDesk extension feed, BankedComments): comments scorers
-- save once and insert again, shared by the scorers of a customer area, per
-- question and optionally per dimension of its rubric (NULL: overall comments).
CREATE TABLE banked_comments (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER  NOT NULL REFERENCES questions(id),
    dimension_order INTEGER,
    text            TEXT    NOT NULL,
    created_by      TEXT    NOT NULL,
    created_at      INTEGER  NOT NULL,
    modified_at     INTEGER  NOT NULL
);
-- The scoring view reads one question's bank.
CREATE INDEX banked_comments_by_question ON banked_comments (customer_id, question_id, dimension_order, id);
