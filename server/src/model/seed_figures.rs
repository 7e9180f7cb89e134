//! How far each marker's markings of check scripts (seeds) sit from their
//! definitive marks (docs/marking-quality.md, "Figures"): the figures that
//! compare him with the mark scheme rather than with the other markers, whose
//! scripts are not the same as his. Pure functions over the seeds he scored;
//! `feeds/marking/marker_statistics.rs` serves them beside his other figures.

use std::collections::BTreeMap;

use crate::model::marker_statistics::slope;

/// Below this many seeds a marker's drift against them is not computed: a slope
/// through fewer is mostly which seeds he happened to get.
pub const SEED_DRIFT_AT_LEAST: usize = 5;

/// One seed as one marker scored it: his total less the definitive one, and
/// when (milliseconds since 1970).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedScored {
    pub result_id: i32,
    pub marker: String,
    pub deviation: i32,
    pub at: i64,
}

/// A marker's (or the question's) figures against the definitive marks; every
/// figure is none without a seed scored.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SeedFigures {
    pub seeds: usize,
    /// The mean of his deviations, signed: below zero he marks under the
    /// definitive marks (harsher), above it over them.
    pub mean_deviation: Option<f64>,
    /// The mean of their sizes: how far off he is, whichever way.
    pub mean_absolute_deviation: Option<f64>,
    /// The share of seeds he gave the definitive total exactly.
    pub exact: Option<f64>,
    /// The least-squares slope of his deviations over his seeds in the order he
    /// scored them, per 10 seeds: below zero he drifts harsher against the mark
    /// scheme. None under `SEED_DRIFT_AT_LEAST` seeds (and for the question).
    pub drift_per_ten: Option<f64>,
}

fn figures(scored: &[&SeedScored], with_drift: bool) -> SeedFigures {
    if scored.is_empty() {
        return SeedFigures::default();
    }
    let n = scored.len() as f64;
    let deviations: Vec<f64> = scored.iter().map(|s| f64::from(s.deviation)).collect();
    let exact = scored.iter().filter(|s| s.deviation == 0).count() as f64;
    SeedFigures {
        seeds: scored.len(),
        mean_deviation: Some(deviations.iter().sum::<f64>() / n),
        mean_absolute_deviation: Some(deviations.iter().map(|d| d.abs()).sum::<f64>() / n),
        exact: Some(exact / n),
        drift_per_ten: (with_drift && scored.len() >= SEED_DRIFT_AT_LEAST)
            .then(|| slope(&deviations))
            .flatten()
            .map(|per_seed| per_seed * 10.0),
    }
}

/// The question's figures over every marker's seeds (no drift: one marker's
/// seeds after another's are no trend).
pub fn question_seed_figures(scored: &[SeedScored]) -> SeedFigures {
    figures(&scored.iter().collect::<Vec<_>>(), false)
}

/// Each marker's figures by name, his seeds in the order he scored them (time,
/// then result, so that ties come out the same every time).
pub fn marker_seed_figures(scored: &[SeedScored]) -> BTreeMap<String, SeedFigures> {
    let mut markers: BTreeMap<&str, Vec<&SeedScored>> = BTreeMap::new();
    for seed in scored {
        markers.entry(seed.marker.as_str()).or_default().push(seed);
    }
    markers
        .into_iter()
        .map(|(marker, mut his)| {
            his.sort_by_key(|s| (s.at, s.result_id));
            (marker.to_owned(), figures(&his, true))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(marker: &str, deviations: &[i32]) -> Vec<SeedScored> {
        deviations
            .iter()
            .enumerate()
            .map(|(i, d)| SeedScored {
                result_id: 100 + i as i32,
                marker: marker.to_owned(),
                deviation: *d,
                // Scored in reverse order of result: order is by time.
                at: 1_000_000 - i as i64 * 1000,
            })
            .collect()
    }

    #[test]
    fn signs_are_kept_in_the_mean_and_not_in_its_size() {
        let figures = question_seed_figures(&scored("ann", &[2, -2, 0, 0]));
        assert_eq!(figures.seeds, 4);
        assert_eq!(figures.mean_deviation, Some(0.0));
        assert_eq!(figures.mean_absolute_deviation, Some(1.0));
        assert_eq!(figures.exact, Some(0.5));
        assert_eq!(figures.drift_per_ten, None, "the question has no drift");
    }

    #[test]
    fn drift_follows_the_order_he_scored_them_in_and_needs_five_seeds() {
        // Scored last first: in time order the deviations run 0, -1, -2, -3, -4.
        let his = scored("ann", &[-4, -3, -2, -1, 0]);
        let figures = &marker_seed_figures(&his)["ann"];
        assert_eq!(figures.drift_per_ten, Some(-10.0));
        let few = &marker_seed_figures(&his[..4])["ann"];
        assert_eq!(few.drift_per_ten, None);
        assert_eq!(few.seeds, 4);
    }

    #[test]
    fn each_marker_is_figured_on_his_own_seeds() {
        let mut all = scored("ann", &[1, 1]);
        all.extend(scored("bob", &[-3]));
        let by_marker = marker_seed_figures(&all);
        assert_eq!(by_marker["ann"].mean_deviation, Some(1.0));
        assert_eq!(by_marker["bob"].mean_deviation, Some(-3.0));
        assert_eq!(question_seed_figures(&[]), SeedFigures::default());
    }
}
