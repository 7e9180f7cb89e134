-- A question's markup is kept out of line without compression (docs/benchmarks.md,
-- "Imports in batches"). Markup long enough to be moved out of the row is, in
-- practice, pictures inlined as base64 of PNG or JPEG, already compressed: pglz
-- gained little on it and was more than half of a 500-item import with images
-- (1,260 ms against 551 ms). Reading it back for a snapshot or a printed page
-- skips the decompression too. Only rows written from now on are stored so.
ALTER TABLE questions ALTER COLUMN markup SET STORAGE EXTERNAL;
