//! Seeded scripts (standardisation; docs/marking-quality.md, "Seeds"): which
//! scripts a lead may make seeds, when a marker is served one, which one, and how
//! far his marking of it is from the definitive marks. Pure functions: the store
//! keeps seeds and their copies, the feeds wire them.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::model::scoring::TaskStatus;

/// The longest a seed's reasons may be, in characters.
pub const REASONS_LENGTH: usize = 4000;

/// A question's seeding: the per cent of a marker's scripts after which he is
/// served a seed, and the difference from a seed's definitive total within which
/// his marking of it is in line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SeedPlan {
    rate: u8,
    tolerance: i32,
}

impl SeedPlan {
    /// Checks the plan's seeding as an administrator writes it.
    pub fn parse(rate: i32, tolerance: i32) -> Result<Self, String> {
        let rate = u8::try_from(rate)
            .ok()
            .filter(|rate| *rate <= 100)
            .ok_or_else(|| format!("MarkingPlan.SeedRate is {rate}: a per cent from 0 to 100"))?;
        if tolerance < 0 {
            return Err(format!(
                "MarkingPlan.SeedTolerance is {tolerance}: a difference of marks, 0 or more"
            ));
        }
        Ok(Self { rate, tolerance })
    }

    pub fn rate(&self) -> u8 {
        self.rate
    }

    pub fn tolerance(&self) -> i32 {
        self.tolerance
    }

    /// Whether `deviation` (his total less the definitive one) is within the
    /// tolerance.
    pub fn in_line(&self, deviation: i32) -> bool {
        deviation.unsigned_abs() <= self.tolerance.unsigned_abs()
    }
}

/// Whether `marker`, who has just scored the task of `question_id` and
/// `result_id`, is served a seed next, under a rate of `rate` per cent: a keyed
/// hash of the three below the rate, so that nothing a marker sees tells when
/// one comes (a fixed "every twentieth" would), and a rate of 100 serves one
/// after every script.
pub fn serves_seed(
    secret: &[u8],
    question_id: i64,
    result_id: i32,
    marker: &str,
    rate: u8,
) -> bool {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret).expect("HMAC takes any key");
    mac.update(b"seed\0");
    mac.update(&question_id.to_be_bytes());
    mac.update(&result_id.to_be_bytes());
    mac.update(marker.as_bytes());
    let digest = mac.finalize().into_bytes();
    let drawn = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    u128::from(drawn) * 100 < u128::from(rate.min(100)) << 64
}

/// A seed of the question as the choice of the next one sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedOffer {
    pub seed_id: i32,
    /// Whether the marker has been served it already.
    pub served: bool,
    /// Whether he scored the script it was made from (he would know it again).
    pub marked_source: bool,
}

/// The seed to serve next: the oldest he was never served and whose script he
/// did not mark himself. None when he has seen them all.
pub fn next_seed(offers: &[SeedOffer]) -> Option<i32> {
    offers
        .iter()
        .filter(|offer| !offer.served && !offer.marked_source)
        .map(|offer| offer.seed_id)
        .min()
}

/// Whether a task may become a seed: scored (3), with every dimension of its
/// rubric scored, so that its marks are whole and definitive.
pub fn check_seedable(status: TaskStatus, unscored_dimensions: usize) -> Result<(), String> {
    if status != TaskStatus::Scored {
        return Err(format!(
            "the ScoringTask is at {}: a seed is made of a scored script (3), whose marks are \
             definitive",
            status.code()
        ));
    }
    if unscored_dimensions > 0 {
        return Err(format!(
            "{unscored_dimensions} of the ScoringResult's DimensionScores have no score: a seed's \
             marks score every dimension"
        ));
    }
    Ok(())
}

/// The reasons as stored: trimmed, and required (a seed teaches why).
pub fn seed_reasons(text: Option<&str>) -> Result<String, String> {
    let reasons = text.map(str::trim).unwrap_or_default();
    if reasons.is_empty() {
        return Err(
            "Seed.Reasons is required: why the script earns its marks, for the markers it is \
             shown to"
                .into(),
        );
    }
    if reasons.chars().count() > REASONS_LENGTH {
        return Err(format!(
            "Seed.Reasons has {} characters; at most {REASONS_LENGTH}",
            reasons.chars().count()
        ));
    }
    Ok(reasons.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_checks_its_rate_and_tolerance() {
        assert_eq!(SeedPlan::parse(5, 1).unwrap().rate(), 5);
        assert!(SeedPlan::parse(101, 1)
            .unwrap_err()
            .contains("SeedRate is 101"));
        assert!(SeedPlan::parse(-1, 1).unwrap_err().contains("SeedRate"));
        assert!(SeedPlan::parse(5, -1)
            .unwrap_err()
            .contains("SeedTolerance is -1"));
        let plan = SeedPlan::parse(5, 2).unwrap();
        assert!(plan.in_line(-2) && plan.in_line(2) && plan.in_line(0));
        assert!(!plan.in_line(3) && !plan.in_line(-3));
    }

    #[test]
    fn seeds_come_at_the_rate_and_never_at_zero() {
        let secret = b"a key";
        let served = |rate| {
            (0..20_000)
                .filter(|r| serves_seed(secret, 7, *r, "m1", rate))
                .count()
        };
        assert_eq!(served(0), 0);
        assert_eq!(served(100), 20_000);
        // 5 % of 20,000 is 1,000; three standard deviations are about 92.
        let five = served(5);
        assert!((908..=1_092).contains(&five), "{five}");
        // The same script, another marker: drawn apart.
        let apart = (0..2_000)
            .filter(|r| {
                serves_seed(secret, 7, *r, "m1", 50) != serves_seed(secret, 7, *r, "m2", 50)
            })
            .count();
        assert!(apart > 800, "{apart}");
    }

    #[test]
    fn the_next_seed_is_the_oldest_not_served_and_not_his_own_script() {
        let offer = |seed_id, served, marked_source| SeedOffer {
            seed_id,
            served,
            marked_source,
        };
        assert_eq!(
            next_seed(&[
                offer(9, false, false),
                offer(3, true, false),
                offer(5, false, true),
                offer(7, false, false)
            ]),
            Some(7)
        );
        assert_eq!(
            next_seed(&[offer(3, true, false), offer(5, false, true)]),
            None
        );
        assert_eq!(next_seed(&[]), None);
    }

    #[test]
    fn only_a_wholly_scored_script_becomes_a_seed() {
        assert!(check_seedable(TaskStatus::Scored, 0).is_ok());
        assert!(check_seedable(TaskStatus::Saved, 0)
            .unwrap_err()
            .contains("at 2"));
        assert!(check_seedable(TaskStatus::Scored, 1)
            .unwrap_err()
            .contains("1 of"));
        assert_eq!(
            seed_reasons(Some("  Clear argument. ")).unwrap(),
            "Clear argument."
        );
        assert!(seed_reasons(Some("  ")).is_err());
        assert!(seed_reasons(None).is_err());
        assert!(seed_reasons(Some(&"x".repeat(4001)))
            .unwrap_err()
            .contains("4001"));
    }
}
