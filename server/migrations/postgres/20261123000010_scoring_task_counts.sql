-- How many scoring tasks each group of an area has in each status, kept by triggers
-- so that no writer can forget it. `ScoringTasks/$count` with `Status eq n` and/or
-- `Group/Name eq '...'` sums a few of these rows instead of counting index entries
-- (PostgreSQL counted a group's 10,000 open tasks in 3 ms; docs/benchmarks.md).
-- Each count is split over 8 shards (by result), so that scorers of one group
-- changing tasks at once seldom wait on the same row. Tasks without a group count
-- under group 0 (no group has that ID).
CREATE TABLE scoring_task_counts (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    group_id        INTEGER NOT NULL,
    status          INTEGER NOT NULL,
    shard           INTEGER NOT NULL,
    tasks           BIGINT  NOT NULL,
    PRIMARY KEY (customer_id, group_id, status, shard)
);

INSERT INTO scoring_task_counts (customer_id, group_id, status, shard, tasks)
SELECT customer_id, COALESCE(group_id, 0), status, result_id % 8, COUNT(*)
FROM scoring_tasks
GROUP BY customer_id, COALESCE(group_id, 0), status, result_id % 8;

CREATE FUNCTION scoring_task_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE scoring_task_counts SET tasks = tasks - 1
        WHERE customer_id = OLD.customer_id AND group_id = COALESCE(OLD.group_id, 0)
          AND status = OLD.status AND shard = OLD.result_id % 8;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO scoring_task_counts (customer_id, group_id, status, shard, tasks)
        VALUES (NEW.customer_id, COALESCE(NEW.group_id, 0), NEW.status, NEW.result_id % 8, 1)
        ON CONFLICT (customer_id, group_id, status, shard)
        DO UPDATE SET tasks = scoring_task_counts.tasks + 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER scoring_tasks_counted_on_insert AFTER INSERT ON scoring_tasks
    FOR EACH ROW EXECUTE FUNCTION scoring_task_counted();
CREATE TRIGGER scoring_tasks_counted_on_delete AFTER DELETE ON scoring_tasks
    FOR EACH ROW EXECUTE FUNCTION scoring_task_counted();
CREATE TRIGGER scoring_tasks_counted_on_update AFTER UPDATE ON scoring_tasks
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status
       OR OLD.group_id IS DISTINCT FROM NEW.group_id
       OR OLD.customer_id IS DISTINCT FROM NEW.customer_id
       OR OLD.result_id IS DISTINCT FROM NEW.result_id)
    EXECUTE FUNCTION scoring_task_counted();
