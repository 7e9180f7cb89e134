//! Regrading after a rubric change (docs/marking-quality.md, "Regrading after a
//! rubric change"): a lead corrects a mark scheme after marking began (a level
//! worth more, a dimension out of more) by writing the question's new rubric,
//! then moves every script marked with the old one onto it. Each dimension's old
//! scores map to new ones; a script's total moves by what its dimensions gained
//! or lost, so a total that was the sum of its dimensions stays that sum.

use std::collections::BTreeMap;

/// A rubric as a regrade sees it: its maximum and each dimension's, by `Order`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RubricShape {
    pub id: i32,
    pub question_id: i64,
    pub max_score: i32,
    /// (Order, name, MaxScore), in order.
    pub dimensions: Vec<(i32, String, i32)>,
}

/// What a client asked of one dimension: the new score of each old one, 0 first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapDraft {
    pub order: i32,
    pub scores: Vec<i32>,
}

/// A checked regrade: for every dimension, the new score of each old score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regrade {
    maps: BTreeMap<i32, Vec<i32>>,
    names: BTreeMap<i32, String>,
    max_score: i32,
}

/// Checks the maps a client sent from rubric `from` to `to` and fills in the
/// dimensions it left out (each score kept). `Err` names the field as the
/// request's body has it (`RubricRegrade.Dimensions[0].Scores[3]`).
pub fn check(from: &RubricShape, to: &RubricShape, drafts: &[MapDraft]) -> Result<Regrade, String> {
    if from.question_id != to.question_id {
        return Err(format!(
            "RubricRegrade.ToRubricID: rubric {} is for question {}, rubric {} for question {}; a regrade stays within one question",
            to.id, to.question_id, from.id, from.question_id
        ));
    }
    if from.dimensions.len() != to.dimensions.len() {
        return Err(format!(
            "RubricRegrade.ToRubricID: rubric {} has {} dimensions and rubric {} has {}; a regrade maps each dimension onto the one of the same Order",
            to.id,
            to.dimensions.len(),
            from.id,
            from.dimensions.len()
        ));
    }
    let mut given: BTreeMap<i32, (usize, &Vec<i32>)> = BTreeMap::new();
    for (index, draft) in drafts.iter().enumerate() {
        let field = format!("RubricRegrade.Dimensions[{index}]");
        if !from
            .dimensions
            .iter()
            .any(|(order, ..)| *order == draft.order)
        {
            return Err(format!(
                "{field}.Order: {} is not a dimension of rubric {} (1 to {})",
                draft.order,
                from.id,
                from.dimensions.len()
            ));
        }
        if given.insert(draft.order, (index, &draft.scores)).is_some() {
            return Err(format!(
                "{field}.Order: dimension {} is mapped twice",
                draft.order
            ));
        }
    }
    let mut maps = BTreeMap::new();
    let mut names = BTreeMap::new();
    for ((order, _, old_max), (_, name, new_max)) in from.dimensions.iter().zip(&to.dimensions) {
        let map = match given.get(order) {
            Some((index, scores)) => {
                checked_map(&format!("RubricRegrade.Dimensions[{index}]"), scores, *old_max, *new_max)?
            }
            None if old_max <= new_max => (0..=*old_max).collect(),
            None => {
                return Err(format!(
                    "RubricRegrade.Dimensions: dimension {order} ({name}) is out of {old_max} in rubric {} and of {new_max} in rubric {}: give its Scores, the new score of each old one",
                    from.id, to.id
                ))
            }
        };
        maps.insert(*order, map);
        names.insert(*order, name.clone());
    }
    Ok(Regrade {
        maps,
        names,
        max_score: to.max_score,
    })
}

fn checked_map(
    field: &str,
    scores: &[i32],
    old_max: i32,
    new_max: i32,
) -> Result<Vec<i32>, String> {
    let wanted = old_max as usize + 1;
    if scores.len() != wanted {
        return Err(format!(
            "{field}.Scores: {} scores given; the old dimension is out of {old_max}, so {wanted} are needed, the new score of 0 first",
            scores.len()
        ));
    }
    for (old, new) in scores.iter().enumerate() {
        if !(0..=new_max).contains(new) {
            return Err(format!(
                "{field}.Scores[{old}]: {new} is not a score of the new dimension (0 to {new_max})"
            ));
        }
        if old > 0 && *new < scores[old - 1] {
            return Err(format!(
                "{field}.Scores[{old}]: {new} is less than old score {}'s {}; a higher level never earns less",
                old - 1,
                scores[old - 1]
            ));
        }
    }
    Ok(scores.to_vec())
}

impl Regrade {
    /// The new score of dimension `order`'s old `score` (a score the old
    /// rubric could not give is kept, as the database's checks never let one in).
    pub fn dimension(&self, order: i32, score: i32) -> i32 {
        self.maps
            .get(&order)
            .and_then(|map| usize::try_from(score).ok().and_then(|at| map.get(at)))
            .copied()
            .unwrap_or(score)
    }

    /// Every (Order, old, new) that changes: what the statements' `CASE` holds.
    pub fn changes(&self) -> Vec<(i32, i32, i32)> {
        self.maps
            .iter()
            .flat_map(|(order, map)| {
                map.iter()
                    .enumerate()
                    .filter(|(old, new)| *old as i32 != **new)
                    .map(|(old, new)| (*order, old as i32, *new))
            })
            .collect()
    }

    /// A script's new total: its old one moved by what its scored dimensions
    /// gained or lost, within 0 and the rubric's maximum. No total stays none.
    pub fn total(&self, total: Option<i32>, dimensions: &[(i32, Option<i32>)]) -> Option<i32> {
        let moved: i32 = dimensions
            .iter()
            .filter_map(|(order, score)| score.map(|score| self.dimension(*order, score) - score))
            .sum();
        total.map(|total| (total + moved).clamp(0, self.max_score))
    }

    /// The maps as the audit entry keeps them: `Idea: 0→0 1→1 2→2 3→4; Language: kept`.
    pub fn describe(&self) -> String {
        self.maps
            .iter()
            .map(|(order, map)| {
                let name = self.names.get(order).map(String::as_str).unwrap_or("");
                let identity = map.iter().enumerate().all(|(old, new)| old as i32 == *new);
                if identity {
                    format!("{order} {name}: kept")
                } else {
                    let pairs: Vec<String> = map
                        .iter()
                        .enumerate()
                        .map(|(old, new)| format!("{old}→{new}"))
                        .collect();
                    format!("{order} {name}: {}", pairs.join(" "))
                }
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The reason a regrade is recorded with: required, trimmed, at most 2,000
/// characters.
pub fn reason(text: Option<&str>) -> Result<String, String> {
    let text = text.map(str::trim).unwrap_or("");
    if text.is_empty() {
        return Err("RubricRegrade.Reason is required: why the scheme changed (the standardisation meeting's decision)".into());
    }
    if text.chars().count() > REASON_LENGTH {
        return Err(format!(
            "RubricRegrade.Reason: at most {REASON_LENGTH} characters"
        ));
    }
    Ok(text.to_owned())
}

pub const REASON_LENGTH: usize = 2_000;

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(id: i32, dims: &[i32]) -> RubricShape {
        RubricShape {
            id,
            question_id: 5,
            max_score: dims.iter().sum(),
            dimensions: dims
                .iter()
                .enumerate()
                .map(|(at, max)| (at as i32 + 1, format!("D{}", at + 1), *max))
                .collect(),
        }
    }

    #[test]
    fn a_level_worth_more_moves_the_scripts_that_reached_it_and_their_totals() {
        // Idea 0..3 and Language 0..1, worth 4; corrected to Idea 0..2 with its top
        // level 2 and Language 0..2: still 4.
        let from = shape(7, &[3, 1]);
        let to = shape(9, &[2, 2]);
        let regrade = check(
            &from,
            &to,
            &[
                MapDraft {
                    order: 1,
                    scores: vec![0, 1, 1, 2],
                },
                MapDraft {
                    order: 2,
                    scores: vec![0, 2],
                },
            ],
        )
        .unwrap();
        assert_eq!(regrade.dimension(1, 3), 2);
        assert_eq!(regrade.dimension(2, 1), 2);
        assert_eq!(regrade.changes(), vec![(1, 2, 1), (1, 3, 2), (2, 1, 2)]);
        // 3 + 1 = 4 becomes 2 + 2 = 4; 2 + 0 becomes 1 + 0.
        assert_eq!(
            regrade.total(Some(4), &[(1, Some(3)), (2, Some(1))]),
            Some(4)
        );
        assert_eq!(
            regrade.total(Some(2), &[(1, Some(2)), (2, Some(0))]),
            Some(1)
        );
        // An unscored dimension moves nothing; no total stays none.
        assert_eq!(regrade.total(Some(1), &[(1, Some(1)), (2, None)]), Some(1));
        assert_eq!(regrade.total(None, &[(1, Some(3))]), None);
        assert_eq!(regrade.describe(), "1 D1: 0→0 1→1 2→1 3→2; 2 D2: 0→0 1→2");
    }

    #[test]
    fn a_dimension_left_out_keeps_its_scores_when_they_still_fit() {
        let regrade = check(
            &shape(7, &[2, 2]),
            &shape(9, &[1, 3]),
            &[MapDraft {
                order: 1,
                scores: vec![0, 1, 1],
            }],
        )
        .unwrap();
        assert_eq!(regrade.dimension(2, 2), 2);
        assert_eq!(regrade.changes(), vec![(1, 2, 1)]);
        assert!(regrade.describe().ends_with("2 D2: kept"));
        let error = check(&shape(7, &[2, 2]), &shape(9, &[1, 3]), &[]).unwrap_err();
        assert!(
            error.starts_with("RubricRegrade.Dimensions: dimension 1 (D1) is out of 2"),
            "{error}"
        );
    }

    #[test]
    fn maps_that_cannot_be_applied_are_refused_naming_the_score() {
        let (from, to) = (shape(7, &[3, 1]), shape(9, &[2, 2]));
        let refused = |scores: Vec<i32>| {
            check(
                &from,
                &to,
                &[
                    MapDraft { order: 1, scores },
                    MapDraft {
                        order: 2,
                        scores: vec![0, 1],
                    },
                ],
            )
            .unwrap_err()
        };
        assert!(refused(vec![0, 1, 2])
            .starts_with("RubricRegrade.Dimensions[0].Scores: 3 scores given"));
        assert!(refused(vec![0, 1, 2, 3])
            .starts_with("RubricRegrade.Dimensions[0].Scores[3]: 3 is not a score"));
        assert!(refused(vec![0, 2, 1, 2])
            .starts_with("RubricRegrade.Dimensions[0].Scores[2]: 1 is less"));
        assert!(refused(vec![-1, 0, 1, 2]).starts_with("RubricRegrade.Dimensions[0].Scores[0]: -1"));
        let twice = check(
            &from,
            &to,
            &[
                MapDraft {
                    order: 2,
                    scores: vec![0, 1],
                },
                MapDraft {
                    order: 2,
                    scores: vec![0, 1],
                },
            ],
        )
        .unwrap_err();
        assert!(twice.starts_with("RubricRegrade.Dimensions[1].Order: dimension 2 is mapped twice"));
        let unknown = check(
            &from,
            &to,
            &[MapDraft {
                order: 3,
                scores: vec![0],
            }],
        )
        .unwrap_err();
        assert!(unknown.starts_with("RubricRegrade.Dimensions[0].Order: 3"));
        let other_shape = check(&from, &shape(9, &[4]), &[]).unwrap_err();
        assert!(other_shape.contains("has 1 dimensions and rubric 7 has 2"));
        let mut elsewhere = shape(9, &[3, 1]);
        elsewhere.question_id = 6;
        assert!(check(&from, &elsewhere, &[])
            .unwrap_err()
            .contains("stays within one question"));
    }

    #[test]
    fn a_total_is_kept_within_the_rubric() {
        let regrade = check(
            &shape(7, &[2, 2]),
            &shape(9, &[2, 2]),
            &[MapDraft {
                order: 1,
                scores: vec![0, 2, 2],
            }],
        )
        .unwrap();
        // A total written above its dimensions' sum is kept at the maximum.
        assert_eq!(
            regrade.total(Some(4), &[(1, Some(1)), (2, Some(2))]),
            Some(4)
        );
        let down = check(
            &shape(7, &[2, 2]),
            &shape(9, &[2, 2]),
            &[MapDraft {
                order: 1,
                scores: vec![0, 0, 0],
            }],
        )
        .unwrap();
        assert_eq!(down.total(Some(0), &[(1, Some(2))]), Some(0));
    }

    #[test]
    fn a_reason_is_required_and_bounded() {
        assert!(reason(None).is_err());
        assert!(reason(Some("  ")).is_err());
        assert_eq!(
            reason(Some(" Level 3 is worth 2. ")).unwrap(),
            "Level 3 is worth 2."
        );
        assert!(reason(Some(&"x".repeat(2_001))).is_err());
    }
}
