//! Rubrics as authored (docs/content.md, "Rubrics"): a name, instructions, and the
//! dimensions in order, each with its maximum, its instructions and, if given, a
//! description of what earns each score. The spec's rule, Limits 1: a rubric's
//! maximum equals its question's; the dimensions' maxima add up to it, since a
//! ScoringResult's score is the sum of its dimension scores.
//!
//! A rubric that a ScoringResult used is never changed under it: a new one replaces
//! it for new scoring and the old one stays for the results made with it.

/// A rubric as an author sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RubricDraft {
    pub name: String,
    pub instructions: Option<String>,
    pub max_score: i32,
    pub dimensions: Vec<DimensionDraft>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DimensionDraft {
    pub name: String,
    pub instructions: Option<String>,
    pub max_score: i32,
    /// What earns 0, 1, …, `max_score`; empty: not described.
    pub levels: Vec<String>,
}

/// A refusal naming the field (`Dimensions[1].MaxScore`) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RubricError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for RubricError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rubric.{}: {}", self.field, self.message)
    }
}

/// The longest name, and the longest instructions or level description.
pub const NAME_LENGTH: usize = 200;
pub const TEXT_LENGTH: usize = 4000;
/// The most dimensions a rubric has; a dimension's largest maximum (an Int16 that
/// scorers type as digits).
pub const MOST_DIMENSIONS: usize = 20;
pub const DIMENSION_MAX: i32 = 100;

fn refuse(field: impl Into<String>, message: impl Into<String>) -> RubricError {
    RubricError {
        field: field.into(),
        message: message.into(),
    }
}

fn check_name(field: &str, name: &str) -> Result<(), RubricError> {
    let length = name.trim().chars().count();
    if length == 0 {
        return Err(refuse(field, "is required and may not be blank"));
    }
    if length > NAME_LENGTH {
        return Err(refuse(
            field,
            format!("is {length} characters; at most {NAME_LENGTH}"),
        ));
    }
    Ok(())
}

fn check_text(field: &str, text: Option<&str>) -> Result<(), RubricError> {
    let length = text.map_or(0, |t| t.chars().count());
    if length > TEXT_LENGTH {
        return Err(refuse(
            field,
            format!("is {length} characters; at most {TEXT_LENGTH}"),
        ));
    }
    Ok(())
}

/// Checks `draft` for a question whose maximum is `question_max`.
pub fn check(draft: &RubricDraft, question_max: i32) -> Result<(), RubricError> {
    check_name("Name", &draft.name)?;
    check_text("Instructions", draft.instructions.as_deref())?;
    if draft.max_score != question_max {
        return Err(refuse(
            "MaxScore",
            format!(
                "is {}; a rubric's maximum must equal its question's, which is {question_max}",
                draft.max_score
            ),
        ));
    }
    if draft.dimensions.is_empty() {
        return Err(refuse("Dimensions", "a rubric has at least one dimension"));
    }
    if draft.dimensions.len() > MOST_DIMENSIONS {
        return Err(refuse(
            "Dimensions",
            format!(
                "{} dimensions; at most {MOST_DIMENSIONS}",
                draft.dimensions.len()
            ),
        ));
    }
    for (index, dimension) in draft.dimensions.iter().enumerate() {
        let at = |field: &str| format!("Dimensions[{index}].{field}");
        check_name(&at("Name"), &dimension.name)?;
        check_text(&at("Instructions"), dimension.instructions.as_deref())?;
        if !(1..=DIMENSION_MAX).contains(&dimension.max_score) {
            return Err(refuse(
                at("MaxScore"),
                format!("is {}; from 1 to {DIMENSION_MAX}", dimension.max_score),
            ));
        }
        if !dimension.levels.is_empty() {
            let wanted = dimension.max_score as usize + 1;
            if dimension.levels.len() != wanted {
                return Err(refuse(
                    at("Levels"),
                    format!(
                        "has {} descriptions; one per score from 0 to {} is {wanted}",
                        dimension.levels.len(),
                        dimension.max_score
                    ),
                ));
            }
            for (score, level) in dimension.levels.iter().enumerate() {
                check_text(&at(&format!("Levels[{score}]")), Some(level))?;
            }
        }
    }
    let sum: i32 = draft.dimensions.iter().map(|d| d.max_score).sum();
    if sum != draft.max_score {
        return Err(refuse(
            "Dimensions",
            format!(
                "their maxima add up to {sum}; they must add up to the rubric's MaxScore, {}",
                draft.max_score
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft() -> RubricDraft {
        let dimension = |name: &str, max: i32| DimensionDraft {
            name: name.into(),
            instructions: None,
            max_score: max,
            levels: Vec::new(),
        };
        RubricDraft {
            name: "Osmosis".into(),
            instructions: Some("Mark the explanation.".into()),
            max_score: 4,
            dimensions: vec![dimension("Idea", 3), dimension("Language", 1)],
        }
    }

    #[test]
    fn a_rubric_whose_dimensions_add_up_to_its_questions_maximum_is_accepted() {
        assert_eq!(check(&draft(), 4), Ok(()));
    }

    #[test]
    fn the_rubrics_maximum_must_equal_the_questions() {
        let error = check(&draft(), 5).unwrap_err();
        assert_eq!(error.field, "MaxScore");
        assert!(error.message.contains("which is 5"), "{error}");
    }

    #[test]
    fn the_dimensions_must_add_up_to_the_maximum() {
        let mut short = draft();
        short.dimensions[0].max_score = 2;
        let error = check(&short, 4).unwrap_err();
        assert_eq!(error.field, "Dimensions");
        assert!(error.message.contains("add up to 3"), "{error}");
    }

    #[test]
    fn each_field_that_is_wrong_is_named() {
        let mut blank = draft();
        blank.dimensions[1].name = "  ".into();
        assert_eq!(check(&blank, 4).unwrap_err().field, "Dimensions[1].Name");
        let mut levels = draft();
        levels.dimensions[1].levels = vec!["nothing".into()];
        let error = check(&levels, 4).unwrap_err();
        assert_eq!(error.field, "Dimensions[1].Levels");
        assert!(error.message.contains("is 2"), "{error}");
        let mut none = draft();
        none.dimensions.clear();
        assert_eq!(check(&none, 4).unwrap_err().field, "Dimensions");
        let mut zero = draft();
        zero.dimensions[0].max_score = 0;
        assert_eq!(check(&zero, 4).unwrap_err().field, "Dimensions[0].MaxScore");
    }
}
