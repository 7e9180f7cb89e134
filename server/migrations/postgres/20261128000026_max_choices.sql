-- The most choices a multiple-response question takes (QTI's `maxChoices`, an
-- associate's `maxAssociations`; docs/content.md, "Each interaction"); NULL: any
-- number. Snapshots carry it as their Validation's MaxSelected, uploads are
-- checked against it, paper says it ("Fill in at most 2 circles").
ALTER TABLE questions ADD COLUMN max_choices INTEGER;
