-- Who changed a scoring task's status, when, and to what (a ScoreDesk extension
-- feed, ScoringEvents): written by the server in the same transaction as every
-- status change, never by a client. Moderators see who saved a score; a scorer's
-- history of what they scored follows them from one computer to another.
CREATE TABLE scoring_events (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    result_id       INTEGER NOT NULL,
    previous_status INTEGER NOT NULL,
    status          INTEGER NOT NULL,
    score           INTEGER,
    account         TEXT    NOT NULL,
    at              INTEGER NOT NULL,
    FOREIGN KEY (question_id, result_id) REFERENCES scoring_tasks(question_id, result_id)
);
-- A scorer's history, newest first; and one task's events in order.
CREATE INDEX scoring_events_by_account ON scoring_events (customer_id, account, at);
CREATE INDEX scoring_events_by_task ON scoring_events (customer_id, question_id, result_id, id);
