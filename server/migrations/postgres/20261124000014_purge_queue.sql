-- Purges (spec, "Results feed"; docs/purges.md). A job of the durable queue is
-- held by one process at a time through a lease (`lease_owner` until
-- `locked_until`), renewed with every result it purges; `results_done` counts the
-- results purged so far, in the same transaction as each, so that a job taken up
-- again after a crash ends with the true total.
ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
ALTER TABLE jobs ADD COLUMN results_done INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_by_audit_entry ON jobs (audit_log_id);

-- Retention policy: days per customer area (`scoredesk-server retention set`).
CREATE TABLE retention_policies (
    customer_id     INTEGER PRIMARY KEY REFERENCES customers(id),
    days            INTEGER NOT NULL CHECK (days > 0),
    set_at          BIGINT  NOT NULL
);

-- The daily scheduled retention purge, once per area and day however many
-- processes run: the process that inserts the day's row queues the job.
CREATE TABLE scheduled_purges (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    day             BIGINT  NOT NULL,
    PRIMARY KEY (customer_id, day)
);

-- A purge removes a result's rows table by table, each found through its result.
CREATE INDEX scoring_results_by_result ON scoring_results (result_id);
CREATE INDEX dimension_scores_by_result ON dimension_scores (result_id);
CREATE INDEX scoring_events_by_result ON scoring_events (result_id);
CREATE INDEX attempts_by_participant ON attempts (customer_id, participant_id);
CREATE INDEX results_by_participant ON results (customer_id, participant_id);
CREATE INDEX group_participants_by_participant ON group_participants (participant_id);
