-- `Group/Name eq '...'` is how scoring tools choose a group's queue, so a name names
-- one group of an area. Declared unique, the store resolves the group before it
-- reads tasks and seeks `group_id` in the tasks' own indexes (docs/benchmarks.md,
-- "Scoring on PostgreSQL"). An area with two groups of one name fails this
-- migration with the name in the error: rename one, then migrate again.
DROP INDEX groups_by_name;
CREATE UNIQUE INDEX groups_by_name ON groups (customer_id, name);
-- A group's tasks of every status, newest result first
-- (`$filter=Group/Name eq '...'&$orderby=Result/WhenFinished desc`).
CREATE INDEX scoring_tasks_by_group_and_time ON scoring_tasks (customer_id, group_id, result_finished_at, result_id, question_id);
