-- Answers are written a result at a time (an upload writes 50 at once) and read a
-- result at a time (a result's answers, a task's answer). Keyed question-first, a
-- result's 50 answers landed on 50 different pages of each of two indexes; keyed
-- result-first they land together at the end of the area's range. The Answers
-- feed is paged in this order too (store::read::plan, stored key order).
ALTER TABLE answers DROP CONSTRAINT answers_pkey;
DROP INDEX answers_by_result;
DROP INDEX answers_by_area_and_key;
ALTER TABLE answers ADD PRIMARY KEY (customer_id, result_id, question_id, occurrence, block_number);
