-- ScoringTasks navigate to their Assessment and filter on Assessment/ID: copy the
-- result's assessment onto the task (as group_id is), so that one index serves it.
ALTER TABLE scoring_tasks ADD COLUMN assessment_id BIGINT REFERENCES assessments(id);
UPDATE scoring_tasks SET assessment_id = (SELECT r.assessment_id FROM results r WHERE r.id = scoring_tasks.result_id);
CREATE INDEX scoring_tasks_by_assessment ON scoring_tasks (customer_id, assessment_id, status);
