//! A question's current rubric as an answer key prints it, for whoever marks the
//! paper by hand: the rubric's instructions, then each dimension in order with its
//! range and what earns each score (its levels, where the rubric has them).

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkingGuide {
    pub name: String,
    pub instructions: Option<String>,
    /// In the rubric's order.
    pub dimensions: Vec<GuideDimension>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuideDimension {
    pub order: i32,
    pub name: String,
    pub instructions: Option<String>,
    pub max_score: i32,
    /// `(score, what earns it)` from the lowest score up; empty when the rubric
    /// says nothing of this dimension's levels.
    pub levels: Vec<(i32, String)>,
}
