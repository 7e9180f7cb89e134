-- Point questions (docs/content.md, "Points on a picture"): places marked on a
-- picture, answered with points in its own pixels. The picture's size says where
-- a point may lie and how the answer sheet draws it; the areas that mark the
-- points are the question's choices (text `circle 102 113 16`, mapped_value
-- what a point in it is worth), and max_choices the most points. NULL for every
-- other kind of question.
ALTER TABLE questions ADD COLUMN picture_width REAL;
ALTER TABLE questions ADD COLUMN picture_height REAL;
