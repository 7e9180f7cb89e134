-- A marker's own seed copies among his tasks, counted beside the kept counts
-- (which leave every copy out) so that his `$count` agrees with his list: few
-- rows, read through this partial index in every kept count.
CREATE INDEX scoring_tasks_seed_copies ON scoring_tasks (customer_id, seed_for) WHERE seed_for IS NOT NULL;
