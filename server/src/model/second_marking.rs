//! Double-blind second marking (docs/marking-quality.md, "Double-blind second
//! marking"): which tasks are marked twice, and the final mark from two (or
//! three) markings by the plan's rule. Pure functions: the store keeps the
//! markings, the feeds wire them (built after these rules).
//!
//! The final mark is decided on the markings' **totals**, and is always a whole
//! marking's dimension scores except under `mean`:
//!
//! - `resolution`: within the tolerance, the mean (below); beyond it, the third
//!   marking's scores.
//! - `mean`: always the mean of the two, whatever the difference.
//! - `higher`: within the tolerance, the marking with the higher total (the first
//!   on a tie); beyond it, the third marking's scores.
//!
//! **The mean's rounding:** the total is the mean of the two totals rounded half
//! up ((A + B + 1) div 2); each dimension is the mean of its two scores, and the
//! dimensions whose mean is a half are rounded up in the rubric's order until
//! they add up to that total, the rest down. So the dimensions always add up to
//! the total, and none leaves the range of its two scores.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How the final mark is reached when a task is marked twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalRule {
    Resolution,
    Mean,
    Higher,
}

impl FinalRule {
    pub const ALL: [FinalRule; 3] = [FinalRule::Resolution, FinalRule::Mean, FinalRule::Higher];

    pub fn as_str(self) -> &'static str {
        match self {
            FinalRule::Resolution => "resolution",
            FinalRule::Mean => "mean",
            FinalRule::Higher => "higher",
        }
    }

    pub fn parse(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|rule| rule.as_str() == text)
            .ok_or_else(|| format!("MarkingPlan.Rule is '{text}': use resolution, mean or higher"))
    }
}

/// A question's plan: the share of its tasks marked twice, the difference of
/// totals within which two markings agree, and the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkingPlan {
    /// Per cent, 0 to 100.
    share: u8,
    tolerance: i32,
    rule: FinalRule,
}

impl MarkingPlan {
    /// Checks a plan as an administrator writes it.
    pub fn parse(share: i32, tolerance: i32, rule: &str) -> Result<Self, String> {
        let share = u8::try_from(share)
            .ok()
            .filter(|share| *share <= 100)
            .ok_or_else(|| format!("MarkingPlan.Share is {share}: a per cent from 0 to 100"))?;
        if tolerance < 0 {
            return Err(format!(
                "MarkingPlan.Tolerance is {tolerance}: a difference of marks, 0 or more"
            ));
        }
        Ok(Self {
            share,
            tolerance,
            rule: FinalRule::parse(rule)?,
        })
    }

    pub fn share(&self) -> u8 {
        self.share
    }

    pub fn tolerance(&self) -> i32 {
        self.tolerance
    }

    pub fn rule(&self) -> FinalRule {
        self.rule
    }
}

/// Whether the task of `question_id` and `result_id` is marked twice under a
/// share of `share` per cent: a keyed hash of the task below the share, so the
/// choice depends neither on the order of marking nor on anything a marker can
/// see or steer, and is the same every time it is asked.
pub fn chosen_for_second_marking(
    secret: &[u8],
    question_id: i64,
    result_id: i32,
    share: u8,
) -> bool {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret).expect("HMAC takes any key");
    mac.update(b"second-marking\0");
    mac.update(&question_id.to_be_bytes());
    mac.update(&result_id.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let drawn = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    // drawn / 2^64 < share / 100, in integers.
    u128::from(drawn) * 100 < u128::from(share.min(100)) << 64
}

/// One marking's dimension scores: (the dimension's order, its score).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marks(pub Vec<(i32, i32)>);

impl Marks {
    pub fn total(&self) -> i32 {
        self.0.iter().map(|(_, score)| score).sum()
    }
}

/// What two (or three) markings come to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// The final dimension scores, in the rubric's order.
    Final(Marks),
    /// The two disagree beyond the tolerance: a third marking decides.
    ThirdMarking,
}

/// The final mark of a task marked twice (and, where asked for, a third time).
/// The markings must score the same dimensions.
pub fn decide(
    plan: &MarkingPlan,
    first: &Marks,
    second: &Marks,
    third: Option<&Marks>,
) -> Result<Decision, String> {
    let first = in_order(first);
    let second = in_order(second);
    same_dimensions(&first, &second)?;
    let apart = (first.total() - second.total()).abs() > plan.tolerance;
    let rule = plan.rule;
    if apart && rule != FinalRule::Mean {
        return Ok(match third {
            Some(third) => {
                let third = in_order(third);
                same_dimensions(&first, &third)?;
                Decision::Final(third)
            }
            None => Decision::ThirdMarking,
        });
    }
    Ok(Decision::Final(match rule {
        FinalRule::Higher if second.total() > first.total() => second,
        FinalRule::Higher => first,
        FinalRule::Resolution | FinalRule::Mean => mean(&first, &second),
    }))
}

fn in_order(marks: &Marks) -> Marks {
    let mut scores = marks.0.clone();
    scores.sort_by_key(|(order, _)| *order);
    Marks(scores)
}

fn same_dimensions(a: &Marks, b: &Marks) -> Result<(), String> {
    let orders = |marks: &Marks| marks.0.iter().map(|(order, _)| *order).collect::<Vec<_>>();
    if orders(a) == orders(b) {
        Ok(())
    } else {
        Err(format!(
            "the markings score different dimensions ({:?} and {:?})",
            orders(a),
            orders(b)
        ))
    }
}

/// The mean of two markings, rounded as the module's comment says.
fn mean(first: &Marks, second: &Marks) -> Marks {
    let total = (first.total() + second.total() + 1).div_euclid(2);
    let mut scores: Vec<(i32, i32)> = first
        .0
        .iter()
        .zip(&second.0)
        .map(|((order, a), (_, b))| (*order, (a + b).div_euclid(2)))
        .collect();
    let mut short = total - scores.iter().map(|(_, score)| score).sum::<i32>();
    for (((_, score), (_, a)), (_, b)) in scores.iter_mut().zip(&first.0).zip(&second.0) {
        if short == 0 {
            break;
        }
        if (a + b) % 2 != 0 {
            *score += 1;
            short -= 1;
        }
    }
    Marks(scores)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn plan(tolerance: i32, rule: &str) -> MarkingPlan {
        MarkingPlan::parse(20, tolerance, rule).unwrap()
    }

    fn marks(scores: &[i32]) -> Marks {
        Marks(
            scores
                .iter()
                .enumerate()
                .map(|(i, s)| (i as i32 + 1, *s))
                .collect(),
        )
    }

    #[test]
    fn a_plan_takes_a_share_from_0_to_100_a_tolerance_of_0_or_more_and_one_of_three_rules() {
        assert!(MarkingPlan::parse(0, 0, "mean").is_ok());
        assert!(MarkingPlan::parse(100, 3, "higher").is_ok());
        assert!(MarkingPlan::parse(101, 0, "mean")
            .unwrap_err()
            .contains("Share"));
        assert!(MarkingPlan::parse(-1, 0, "mean")
            .unwrap_err()
            .contains("Share"));
        assert!(MarkingPlan::parse(10, -1, "mean")
            .unwrap_err()
            .contains("Tolerance"));
        assert!(MarkingPlan::parse(10, 0, "median")
            .unwrap_err()
            .contains("Rule"));
    }

    #[test]
    fn the_share_chosen_is_the_share_asked_for_and_fixed_by_the_secret() {
        let chosen = |secret: &[u8], share| {
            (0..10_000)
                .filter(|r| chosen_for_second_marking(secret, 77, *r, share))
                .count()
        };
        assert_eq!(chosen(b"k", 0), 0);
        assert_eq!(chosen(b"k", 100), 10_000);
        let twenty = chosen(b"k", 20);
        assert!(
            (1_850..=2_150).contains(&twenty),
            "{twenty} of 10,000 at 20 %"
        );
        // The same task is chosen the same way every time; another secret chooses others.
        let picked = |secret: &[u8]| {
            (0..200)
                .filter(|r| chosen_for_second_marking(secret, 77, *r, 50))
                .collect::<Vec<_>>()
        };
        assert_eq!(picked(b"k"), picked(b"k"));
        assert_ne!(picked(b"k"), picked(b"other"));
    }

    #[test]
    fn within_the_tolerance_resolution_takes_the_mean_and_higher_the_higher() {
        let (a, b) = (marks(&[3, 2, 1]), marks(&[3, 3, 2]));
        // Totals 6 and 8: 7; the dimensions 3, 2.5 and 1.5, the first half up.
        assert_eq!(
            decide(&plan(2, "resolution"), &a, &b, None),
            Ok(Decision::Final(marks(&[3, 3, 1])))
        );
        assert_eq!(
            decide(&plan(2, "higher"), &a, &b, None),
            Ok(Decision::Final(b.clone()))
        );
        assert_eq!(
            decide(&plan(2, "higher"), &b, &a, None),
            Ok(Decision::Final(b.clone()))
        );
        // A tie: the first marking.
        let tie = marks(&[3, 2, 3]);
        assert_eq!(
            decide(&plan(0, "higher"), &b, &tie, None),
            Ok(Decision::Final(b.clone()))
        );
    }

    #[test]
    fn beyond_the_tolerance_a_third_marking_decides_but_the_mean_is_always_the_mean() {
        let (a, b, c) = (marks(&[0, 0]), marks(&[3, 3]), marks(&[2, 1]));
        for rule in ["resolution", "higher"] {
            assert_eq!(
                decide(&plan(2, rule), &a, &b, None),
                Ok(Decision::ThirdMarking),
                "{rule}"
            );
            assert_eq!(
                decide(&plan(2, rule), &a, &b, Some(&c)),
                Ok(Decision::Final(c.clone())),
                "{rule}"
            );
        }
        assert_eq!(
            decide(&plan(2, "mean"), &a, &b, None),
            Ok(Decision::Final(marks(&[2, 1])))
        );
    }

    #[test]
    fn markings_of_different_dimensions_are_refused() {
        let error = decide(&plan(1, "mean"), &marks(&[1, 2]), &marks(&[1]), None).unwrap_err();
        assert!(error.contains("different dimensions"), "{error}");
    }

    #[test]
    fn dimensions_are_taken_in_the_rubrics_order_whatever_order_they_come_in() {
        let a = Marks(vec![(2, 1), (1, 0)]);
        let b = Marks(vec![(1, 1), (2, 2)]);
        // Totals 1 and 3: mean 2; dimension 1 is 0.5 → up (first in order), dimension 2 1.5 → down.
        assert_eq!(
            decide(&plan(5, "mean"), &a, &b, None),
            Ok(Decision::Final(Marks(vec![(1, 1), (2, 1)])))
        );
    }

    proptest! {
        #[test]
        fn the_mean_adds_up_to_the_half_up_mean_of_the_totals_and_stays_between_the_two(
            pairs in proptest::collection::vec((0..10i32, 0..10i32), 1..8)
        ) {
            let a = marks(&pairs.iter().map(|(a, _)| *a).collect::<Vec<_>>());
            let b = marks(&pairs.iter().map(|(_, b)| *b).collect::<Vec<_>>());
            let Ok(Decision::Final(m)) = decide(&plan(0, "mean"), &a, &b, None) else {
                panic!("the mean always decides");
            };
            prop_assert_eq!(m.total(), (a.total() + b.total() + 1) / 2);
            for (((_, s), (_, x)), (_, y)) in m.0.iter().zip(&a.0).zip(&b.0) {
                prop_assert!(*s >= *x.min(y) && *s <= *x.max(y));
            }
        }
    }
}
