-- A text-entry key that is a number (docs/content.md, "Numbers"): the answer is
-- read as a number and accepted when it lies from numeric_low to numeric_high,
-- both included (QTI's `equal` with a tolerance, a QTI 1.2 or Moodle numerical
-- answer with its margin or range). Both NULL: the key is compared as text.
ALTER TABLE text_keys ADD COLUMN numeric_low REAL;
ALTER TABLE text_keys ADD COLUMN numeric_high REAL;
