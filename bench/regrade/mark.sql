-- scripts/bench --regrade: the first question's tasks all scored (Status 3) with
-- every dimension of its rubric, each score the result's ID modulo the
-- dimension's range, the total their sum, the answer's score the total: what a
-- regrade of that question's rubric then moves. SQLite and PostgreSQL alike.
UPDATE scoring_tasks SET status = 3 WHERE question_id = (SELECT MIN(question_id) FROM rubrics);
INSERT INTO scoring_results (customer_id, question_id, rubric_id, result_id, score, comments, created_at, modified_at)
SELECT t.customer_id, t.question_id, r.id, t.result_id,
       (SELECT SUM(t.result_id % (d.max_score + 1)) FROM dimensions d WHERE d.rubric_id = r.id),
       NULL, 1800000000000, 1800000000000
FROM scoring_tasks t JOIN rubrics r ON r.question_id = t.question_id
WHERE t.question_id = (SELECT MIN(question_id) FROM rubrics);
INSERT INTO dimension_scores (customer_id, question_id, rubric_id, result_id, dimension_order, score, comment)
SELECT t.customer_id, t.question_id, r.id, t.result_id, d.dimension_order, t.result_id % (d.max_score + 1), NULL
FROM scoring_tasks t JOIN rubrics r ON r.question_id = t.question_id JOIN dimensions d ON d.rubric_id = r.id
WHERE t.question_id = (SELECT MIN(question_id) FROM rubrics);
UPDATE answers SET actual_score = (SELECT s.score FROM scoring_results s
    WHERE s.question_id = answers.question_id AND s.result_id = answers.result_id)
WHERE question_id = (SELECT MIN(question_id) FROM rubrics);
ANALYZE;
