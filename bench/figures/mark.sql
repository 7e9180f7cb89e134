-- scripts/bench --figures: the first question's tasks all marked once by one of 40
-- markers, 30 s apart, every other task of the area claimed and saved (two events
-- each), so that MarkerStatistics reads one question's scripts among an area's
-- events. Runs on SQLite and PostgreSQL alike.
UPDATE scoring_tasks SET status = 3 WHERE question_id = (SELECT MIN(question_id) FROM rubrics);
INSERT INTO scoring_results (customer_id, question_id, rubric_id, result_id, score, comments, created_at, modified_at)
SELECT t.customer_id, t.question_id, r.id, t.result_id, t.result_id % 11, NULL, 1800000000000, 1800000000000
FROM scoring_tasks t JOIN rubrics r ON r.question_id = t.question_id
WHERE t.question_id = (SELECT MIN(question_id) FROM rubrics);
INSERT INTO scoring_events (customer_id, question_id, result_id, previous_status, status, score, account, at)
SELECT t.customer_id, t.question_id, t.result_id, previous.status, previous.status + 1, NULL, 'elsewhere', 1800000000000
FROM scoring_tasks t CROSS JOIN (SELECT 0 AS status UNION ALL SELECT 1) previous
WHERE t.question_id <> (SELECT MIN(question_id) FROM rubrics);
INSERT INTO scoring_events (customer_id, question_id, result_id, previous_status, status, score, account, at)
SELECT t.customer_id, t.question_id, t.result_id, 1, 3, t.result_id % 11, 'marker-' || CAST(t.result_id % 40 AS TEXT),
       1800000000000 + CAST(t.result_id AS BIGINT) * 30000
FROM scoring_tasks t WHERE t.question_id = (SELECT MIN(question_id) FROM rubrics);
ANALYZE;
