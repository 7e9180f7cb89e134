-- Markers paused from a question by their seeds (our extension, MarkerPauses and
-- MarkerReleases; docs/marking-quality.md, "Pauses"): a pause is made when a
-- marker's latest seeds of the question leave the plan's tolerance, and a lead
-- releases it once. Neither is ever deleted: they are a marker's record, kept
-- when the scripts are purged.
CREATE TABLE marker_pauses (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER  NOT NULL,
    marker          TEXT    NOT NULL,
    -- The seeds weighed, their mean distance from the definitive marks, and the
    -- tolerance it was beyond, as they were when he was paused.
    seeds_counted   INTEGER NOT NULL,
    mean_deviation  REAL NOT NULL,
    tolerance       INTEGER NOT NULL,
    -- What he is told when he asks for a task of the question.
    message         TEXT    NOT NULL,
    paused_at       INTEGER  NOT NULL,
    -- Until a lead releases him.
    is_open         BOOLEAN NOT NULL
);
-- A marker has at most one open pause per question; his open pauses are read on
-- his reads of ScoringTasks.
CREATE UNIQUE INDEX marker_pauses_open ON marker_pauses (customer_id, marker, question_id) WHERE is_open;
-- The lead's desk: an area's open pauses, oldest first.
CREATE INDEX marker_pauses_by_area ON marker_pauses (customer_id, is_open, id);

-- A lead's release of a pause: one per pause. The seeds weighed next are those
-- marked after it.
CREATE TABLE marker_releases (
    pause_id        INTEGER NOT NULL PRIMARY KEY REFERENCES marker_pauses(id),
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    note            TEXT    NOT NULL,
    released_by     TEXT    NOT NULL,
    released_at     INTEGER  NOT NULL
);
