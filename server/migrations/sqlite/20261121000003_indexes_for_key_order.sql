-- A feed without $orderby is read in key order, one customer area at a time: these
-- indexes let every page, the first included, be read in order without a sort.
CREATE INDEX results_by_area_and_id ON results (customer_id, id);
CREATE INDEX scoring_tasks_by_area_and_key ON scoring_tasks (customer_id, question_id, result_id);
CREATE INDEX answers_by_area_and_key ON answers (customer_id, question_id, result_id, occurrence, block_number);
CREATE INDEX topic_scores_by_area_and_key ON topic_scores (customer_id, result_id, topic_id);
CREATE INDEX results_audit_log_by_area_and_id ON results_audit_log (customer_id, id);
