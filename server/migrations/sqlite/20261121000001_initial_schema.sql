-- The whole data model of the Delivery and Scoring Data Service.
-- Times are INTEGER milliseconds since the Unix epoch, UTC.

CREATE TABLE customers (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,
    retention_days  INTEGER,
    created_at      INTEGER NOT NULL
);

CREATE TABLE accounts (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER REFERENCES customers(id),  -- NULL: server administrator
    username        TEXT    NOT NULL UNIQUE,
    password_hash   TEXT    NOT NULL,
    role            TEXT    NOT NULL CHECK (role IN ('admin', 'scorer', 'coordinator')),
    created_at      INTEGER NOT NULL
);

CREATE TABLE groups (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    name            TEXT    NOT NULL,
    description     TEXT
);
CREATE INDEX groups_by_name ON groups (customer_id, name);

CREATE TABLE participants (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    name            TEXT    NOT NULL,
    first_name      TEXT,
    last_name       TEXT,
    primary_email   TEXT,
    UNIQUE (customer_id, name)
);

CREATE TABLE group_participants (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    group_id        INTEGER NOT NULL REFERENCES groups(id),
    participant_id  INTEGER NOT NULL REFERENCES participants(id),
    PRIMARY KEY (group_id, participant_id)
);

CREATE TABLE assessments (
    id              INTEGER PRIMARY KEY,  -- Int64 combined identifier
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    name            TEXT    NOT NULL,
    language        TEXT,
    description     TEXT,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL
);

CREATE TABLE topics (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    parent_id       INTEGER REFERENCES topics(id),
    name            TEXT    NOT NULL,
    path            TEXT    NOT NULL
);

CREATE TABLE score_bands (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    assessment_id   INTEGER NOT NULL REFERENCES assessments(id),
    min_percentage  INTEGER NOT NULL,
    title           TEXT    NOT NULL,
    UNIQUE (assessment_id, min_percentage)
);

CREATE TABLE questions (
    id              INTEGER PRIMARY KEY,  -- Int64
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    revision        INTEGER NOT NULL,
    language        TEXT,
    description     TEXT,
    question_type   TEXT    NOT NULL,
    max_score       INTEGER NOT NULL,
    topic_id        INTEGER REFERENCES topics(id),
    markup          TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL
);

CREATE TABLE choices (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL REFERENCES questions(id),
    choice_order    INTEGER NOT NULL,
    text            TEXT    NOT NULL,
    is_correct      BOOLEAN NOT NULL,
    PRIMARY KEY (question_id, choice_order)
);

CREATE TABLE assessment_questions (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    assessment_id   INTEGER NOT NULL REFERENCES assessments(id),
    position        INTEGER NOT NULL,
    question_id     INTEGER NOT NULL REFERENCES questions(id),
    PRIMARY KEY (assessment_id, position)
);

CREATE TABLE rubrics (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL UNIQUE REFERENCES questions(id),
    name            TEXT    NOT NULL,
    instructions    TEXT,
    max_score       INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL
);

CREATE TABLE dimensions (
    id              INTEGER PRIMARY KEY,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    rubric_id       INTEGER NOT NULL REFERENCES rubrics(id),
    dimension_order INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    instructions    TEXT,
    max_score       INTEGER NOT NULL,
    UNIQUE (rubric_id, dimension_order)
);

CREATE TABLE assessment_snapshots (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    assessment_id   INTEGER NOT NULL REFERENCES assessments(id),
    name            TEXT,
    language        TEXT,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL,
    expires_at      INTEGER,
    data_xml        TEXT    NOT NULL
);
CREATE INDEX assessment_snapshots_by_assessment ON assessment_snapshots (customer_id, assessment_id);

CREATE TABLE print_batches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    group_id        INTEGER NOT NULL REFERENCES groups(id),
    snapshot_id     INTEGER NOT NULL REFERENCES assessment_snapshots(id),
    name            TEXT,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL,
    last_uploaded_at INTEGER
);
CREATE INDEX print_batches_by_group ON print_batches (customer_id, group_id);

CREATE TABLE attempts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    participant_id  INTEGER REFERENCES participants(id),
    assessment_id   INTEGER REFERENCES assessments(id),
    snapshot_id     INTEGER REFERENCES assessment_snapshots(id),
    external_attempt_id TEXT,
    lock_status     BOOLEAN NOT NULL DEFAULT 0,
    lock_required   BOOLEAN NOT NULL DEFAULT 0,
    result_id       INTEGER,
    last_modified_at INTEGER NOT NULL,
    UNIQUE (customer_id, external_attempt_id)
);

CREATE TABLE answer_uploads (
    attempt_id      INTEGER PRIMARY KEY REFERENCES attempts(id),
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    content_type    TEXT    NOT NULL,
    uploaded_at     INTEGER NOT NULL,
    content         BLOB    NOT NULL
);

CREATE TABLE results (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,  -- Int32
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    assessment_id   INTEGER NOT NULL REFERENCES assessments(id),
    participant_id  INTEGER REFERENCES participants(id),
    participant_name TEXT,
    group_id        INTEGER REFERENCES groups(id),
    group_name      TEXT,
    test_center_name TEXT,
    participant_details TEXT,
    status          INTEGER NOT NULL,
    max_score       INTEGER NOT NULL,
    total_score     INTEGER NOT NULL,
    score_band_title TEXT,
    percentage_score INTEGER NOT NULL,
    when_finished   INTEGER,
    when_started    INTEGER,
    extra_time      INTEGER NOT NULL DEFAULT 0,
    special1 TEXT, special2 TEXT, special3 TEXT, special4 TEXT, special5 TEXT,
    special6 TEXT, special7 TEXT, special8 TEXT, special9 TEXT, special10 TEXT,
    still_going     BOOLEAN NOT NULL,
    time_taken      INTEGER NOT NULL DEFAULT 0,
    schedule_name   TEXT,
    first_name      TEXT,
    last_name       TEXT,
    language        TEXT,
    attempt_id      INTEGER REFERENCES attempts(id),
    external_result_id TEXT,
    external_result_info TEXT
);
CREATE INDEX results_by_when_finished ON results (customer_id, when_finished);
CREATE INDEX results_by_assessment ON results (customer_id, assessment_id);
CREATE INDEX results_by_participant_name ON results (customer_id, participant_name);
CREATE INDEX results_by_group_name ON results (customer_id, group_name);

CREATE TABLE answers (
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
    PRIMARY KEY (question_id, result_id, occurrence, block_number)
);
CREATE INDEX answers_by_result ON answers (result_id);

CREATE TABLE scoring_tasks (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL REFERENCES questions(id),
    result_id       INTEGER NOT NULL REFERENCES results(id),
    -- Copied from the result so that `Group/Name` filters and counts use one index.
    group_id        INTEGER REFERENCES groups(id),
    status          INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL,
    PRIMARY KEY (question_id, result_id)
);
CREATE INDEX scoring_tasks_by_status ON scoring_tasks (customer_id, status, result_id);
CREATE INDEX scoring_tasks_by_group ON scoring_tasks (customer_id, group_id, status);
CREATE INDEX scoring_tasks_by_result ON scoring_tasks (result_id);

CREATE TABLE scoring_results (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    rubric_id       INTEGER NOT NULL REFERENCES rubrics(id),
    result_id       INTEGER NOT NULL,
    score           INTEGER,
    comments        TEXT,
    created_at      INTEGER NOT NULL,
    modified_at     INTEGER NOT NULL,
    -- At most one ScoringResult per ScoringTask.
    PRIMARY KEY (question_id, result_id),
    FOREIGN KEY (question_id, result_id) REFERENCES scoring_tasks(question_id, result_id)
);

CREATE TABLE dimension_scores (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    question_id     INTEGER NOT NULL,
    rubric_id       INTEGER NOT NULL,
    result_id       INTEGER NOT NULL,
    dimension_order INTEGER NOT NULL,
    score           INTEGER,
    comment         TEXT,
    PRIMARY KEY (question_id, result_id, dimension_order),
    FOREIGN KEY (question_id, result_id) REFERENCES scoring_results(question_id, result_id)
);

CREATE TABLE topic_scores (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    result_id       INTEGER NOT NULL REFERENCES results(id),
    topic_id        INTEGER NOT NULL REFERENCES topics(id),
    percentage_score REAL   NOT NULL,
    total_score     INTEGER NOT NULL,
    max_score       INTEGER NOT NULL,
    score_band_title TEXT,
    num_questions   INTEGER NOT NULL,
    topic_path      TEXT,
    PRIMARY KEY (result_id, topic_id)
);

CREATE TABLE results_audit_log (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    message_id      TEXT    NOT NULL UNIQUE,
    request_user_id INTEGER NOT NULL,
    request_type    TEXT    NOT NULL,
    request_data    TEXT,
    source          TEXT,
    request_at      INTEGER NOT NULL,
    is_in_queue     BOOLEAN NOT NULL,
    processed_at    INTEGER,
    was_successful  BOOLEAN,
    total_results_affected INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX results_audit_log_by_time ON results_audit_log (customer_id, request_at);

-- The durable queue behind asynchronous work (purges).
CREATE TABLE jobs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL,
    audit_log_id    INTEGER REFERENCES results_audit_log(id),
    attempts        INTEGER NOT NULL DEFAULT 0,
    run_after       INTEGER NOT NULL,
    locked_until    INTEGER,
    last_error      TEXT,
    created_at      INTEGER NOT NULL
);
CREATE INDEX jobs_ready ON jobs (run_after);
