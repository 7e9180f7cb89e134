-- A scorer's queue is open tasks, often of one group, newest result first
-- (`$filter=Status eq 0 and Group/Name eq '...'&$orderby=Result/WhenFinished desc`).
-- Walking results in WhenFinished order and probing tasks slows down as the newest
-- tasks get scored (every scored one is walked past again). Copy the result's
-- WhenFinished onto the task, as group_id and assessment_id are (it never changes once
-- a result is finalised), so that one index delivers each queue in order.
ALTER TABLE scoring_tasks ADD COLUMN result_finished_at BIGINT;
UPDATE scoring_tasks SET result_finished_at = (SELECT r.when_finished FROM results r WHERE r.id = scoring_tasks.result_id);
DROP INDEX scoring_tasks_by_status;
DROP INDEX scoring_tasks_by_group;
CREATE INDEX scoring_tasks_by_status ON scoring_tasks (customer_id, status, result_finished_at, result_id, question_id);
CREATE INDEX scoring_tasks_by_group ON scoring_tasks (customer_id, group_id, status, result_finished_at, result_id, question_id);
