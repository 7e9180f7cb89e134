-- A fill-in-the-blanks question's keys (docs/content.md, "Fill in the blanks"):
-- each key belongs to one blank (part 1, 2, … of `question_parts`); 0 is a text
-- entry's single answer. key_order stays unique across the question's blanks.
ALTER TABLE text_keys ADD COLUMN part_number INTEGER NOT NULL DEFAULT 0;
