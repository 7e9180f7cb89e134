-- Every foreign key into a table whose rows are deleted (a purge deletes results,
-- their tasks, scoring results and attempts, and participants) has an index that
-- leads with its column. Deleting the parent row makes the database look for
-- children through that column: without such an index PostgreSQL reads the whole
-- child table, and SQLite does too unless its statistics let it skip-scan the
-- area column first, which a connection opened before the last ANALYZE cannot
-- (the purge benchmark lost nine tenths of its pace to that).
CREATE INDEX answers_by_result ON answers (result_id);
CREATE INDEX results_by_attempt ON results (attempt_id);

-- A participant's ID is unique across areas, so these serve the area's lookups
-- as well as the keyed-by-area ones they replace.
DROP INDEX attempts_by_participant;
CREATE INDEX attempts_by_participant ON attempts (participant_id);
DROP INDEX results_by_participant;
CREATE INDEX results_by_participant ON results (participant_id);
