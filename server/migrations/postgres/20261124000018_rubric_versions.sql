-- Rubrics have versions (docs/content.md, "Rubrics"): a rubric that a ScoringResult
-- used is never changed under it; a new rubric replaces it for new scoring, and
-- the old one stays, with `replaced_at` set, for the ScoringResults made with it.
-- A question so has many rubrics and at most one current one.
ALTER TABLE rubrics DROP CONSTRAINT rubrics_question_id_key;
ALTER TABLE rubrics ADD COLUMN replaced_at BIGINT;
CREATE UNIQUE INDEX rubrics_current ON rubrics (question_id) WHERE replaced_at IS NULL;
CREATE INDEX rubrics_by_question ON rubrics (customer_id, question_id);
