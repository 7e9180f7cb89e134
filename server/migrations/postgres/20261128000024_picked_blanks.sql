-- A fill-in-the-blanks question's blanks picked from their own lists (QTI's
-- inline choices among a passage's blanks; docs/content.md, "Fill in the
-- blanks"): each such blank's options are the question's choices with its
-- number. 0: the question's own choices (a choice question's, a matching's
-- options, which its parts share).
ALTER TABLE choices ADD COLUMN part_number INTEGER NOT NULL DEFAULT 0;
