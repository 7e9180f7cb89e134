-- Rosters brought in from a school's information system (docs/rosters.md): a
-- participant's and a group's key there (OneRoster's sourcedId), so that the next
-- export updates them in place instead of adding them again, and a class's code.
ALTER TABLE participants ADD COLUMN external_key TEXT;
CREATE UNIQUE INDEX participants_by_external_key ON participants (customer_id, external_key)
    WHERE external_key IS NOT NULL;
ALTER TABLE groups ADD COLUMN external_key TEXT;
ALTER TABLE groups ADD COLUMN code TEXT;
CREATE UNIQUE INDEX groups_by_external_key ON groups (customer_id, external_key)
    WHERE external_key IS NOT NULL;
