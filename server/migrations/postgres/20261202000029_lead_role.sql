-- A fourth role, the lead marker (docs/marking-quality.md).
ALTER TABLE accounts DROP CONSTRAINT accounts_role_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_role_check
    CHECK (role IN ('admin', 'scorer', 'coordinator', 'lead'));
