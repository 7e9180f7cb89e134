-- How many scoring tasks each group of an area has in each status, kept by triggers
-- so that no writer can forget it. `ScoringTasks/$count` with `Status eq n` and/or
-- `Group/Name eq '...'` sums a few of these rows instead of counting index entries
-- (docs/benchmarks.md). Each count is split over 8 shards (by result), as on
-- PostgreSQL, where scorers of one group then seldom wait on the same row. Tasks
-- without a group count under group 0 (no group has that ID).
CREATE TABLE scoring_task_counts (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    group_id        INTEGER NOT NULL,
    status          INTEGER NOT NULL,
    shard           INTEGER NOT NULL,
    tasks           INTEGER NOT NULL,
    PRIMARY KEY (customer_id, group_id, status, shard)
);

INSERT INTO scoring_task_counts (customer_id, group_id, status, shard, tasks)
SELECT customer_id, COALESCE(group_id, 0), status, result_id % 8, COUNT(*)
FROM scoring_tasks
GROUP BY customer_id, COALESCE(group_id, 0), status, result_id % 8;

CREATE TRIGGER scoring_tasks_counted_on_insert AFTER INSERT ON scoring_tasks
BEGIN
    INSERT INTO scoring_task_counts (customer_id, group_id, status, shard, tasks)
    VALUES (NEW.customer_id, COALESCE(NEW.group_id, 0), NEW.status, NEW.result_id % 8, 1)
    ON CONFLICT (customer_id, group_id, status, shard) DO UPDATE SET tasks = tasks + 1;
END;

CREATE TRIGGER scoring_tasks_counted_on_delete AFTER DELETE ON scoring_tasks
BEGIN
    UPDATE scoring_task_counts SET tasks = tasks - 1
    WHERE customer_id = OLD.customer_id AND group_id = COALESCE(OLD.group_id, 0)
      AND status = OLD.status AND shard = OLD.result_id % 8;
END;

CREATE TRIGGER scoring_tasks_counted_on_update AFTER UPDATE ON scoring_tasks
    WHEN OLD.status IS NOT NEW.status OR OLD.group_id IS NOT NEW.group_id
      OR OLD.customer_id IS NOT NEW.customer_id OR OLD.result_id IS NOT NEW.result_id
BEGIN
    UPDATE scoring_task_counts SET tasks = tasks - 1
    WHERE customer_id = OLD.customer_id AND group_id = COALESCE(OLD.group_id, 0)
      AND status = OLD.status AND shard = OLD.result_id % 8;
    INSERT INTO scoring_task_counts (customer_id, group_id, status, shard, tasks)
    VALUES (NEW.customer_id, COALESCE(NEW.group_id, 0), NEW.status, NEW.result_id % 8, 1)
    ON CONFLICT (customer_id, group_id, status, shard) DO UPDATE SET tasks = tasks + 1;
END;
