-- What earns each score of a rubric's dimension (a ScoreDesk extension feed,
-- DimensionLevels): "3: a clear proposal with three relevant reasons". Scorers see
-- them beside the number keys. Optional: a dimension may have none, or some scores.
CREATE TABLE dimension_levels (
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    rubric_id       INTEGER NOT NULL REFERENCES rubrics(id),
    dimension_order INTEGER NOT NULL,
    score           SMALLINT NOT NULL,
    description     TEXT    NOT NULL,
    PRIMARY KEY (rubric_id, dimension_order, score),
    FOREIGN KEY (rubric_id, dimension_order) REFERENCES dimensions(rubric_id, dimension_order)
);
-- The scoring view reads one rubric's levels in the area.
CREATE INDEX dimension_levels_by_area ON dimension_levels (customer_id, rubric_id, dimension_order, score);
