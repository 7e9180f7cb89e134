//! How far two markings of the same scripts agree (docs/marking-quality.md,
//! "Figures"): on the totals of a question's double-marked tasks, the share
//! marked alike, the share within one mark, Cohen's kappa with quadratic weights
//! over the question's whole range of marks (0 to its maximum), and the
//! intraclass correlation ICC(1,1) (Shrout and Fleiss's one-way random model:
//! the two markings of a script are by markers who differ from script to
//! script, so no marker is a fixed column). And per marker: his scripts, the
//! mean and spread of his totals, and his agreement with the other marking of
//! the scripts he marked. Pure functions; checked against scikit-learn and
//! pingouin in `server/tests/agreement_reference.rs`.

/// Agreement over a set of pairs of totals.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    pub pairs: usize,
    /// Share of pairs with the same total.
    pub exact: f64,
    /// Share of pairs at most one mark apart.
    pub within_one: f64,
    /// Undefined (`None`) when every total is the same mark.
    pub quadratic_kappa: Option<f64>,
    /// Undefined (`None`) with fewer than two pairs or no spread at all.
    pub icc: Option<f64>,
}

/// The agreement of `pairs` (first total, second total) of a question whose
/// marks run from 0 to `max`; `None` for no pairs. Totals outside 0..=max are
/// clamped into it (a corrupt row must not break the figures).
pub fn agreement(pairs: &[(i32, i32)], max: i32) -> Option<Agreement> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let exact = pairs.iter().filter(|(a, b)| a == b).count() as f64 / n;
    let within_one = pairs.iter().filter(|(a, b)| (a - b).abs() <= 1).count() as f64 / n;
    Some(Agreement {
        pairs: pairs.len(),
        exact,
        within_one,
        quadratic_kappa: quadratic_kappa(pairs, max),
        icc: icc_one_way(pairs),
    })
}

/// Cohen's kappa with weights (i − j)² over marks 0..=max: one minus the
/// weighted observed disagreement over the weighted disagreement expected from
/// the two markings' own distributions.
fn quadratic_kappa(pairs: &[(i32, i32)], max: i32) -> Option<f64> {
    let size = usize::try_from(max.max(0)).ok()? + 1;
    let mut observed = vec![0.0f64; size * size];
    let mut rows = vec![0.0f64; size];
    let mut columns = vec![0.0f64; size];
    for (a, b) in pairs {
        let a = a.clamp(&0, &max.max(0)).unsigned_abs() as usize;
        let b = b.clamp(&0, &max.max(0)).unsigned_abs() as usize;
        observed[a * size + b] += 1.0;
        rows[a] += 1.0;
        columns[b] += 1.0;
    }
    let n = pairs.len() as f64;
    let (mut disagreement, mut expected) = (0.0, 0.0);
    for i in 0..size {
        for j in 0..size {
            let weight = (i as f64 - j as f64).powi(2);
            disagreement += weight * observed[i * size + j];
            expected += weight * rows[i] * columns[j] / n;
        }
    }
    (expected > 0.0).then(|| 1.0 - disagreement / expected)
}

/// ICC(1,1): (MSB − MSW) / (MSB + MSW) for two markings a script, from the
/// one-way analysis of variance of the totals by script.
fn icc_one_way(pairs: &[(i32, i32)]) -> Option<f64> {
    if pairs.len() < 2 {
        return None;
    }
    let n = pairs.len() as f64;
    let grand = pairs.iter().map(|(a, b)| f64::from(a + b)).sum::<f64>() / (2.0 * n);
    let (mut between, mut within) = (0.0, 0.0);
    for (a, b) in pairs {
        let (a, b) = (f64::from(*a), f64::from(*b));
        let mean = (a + b) / 2.0;
        between += 2.0 * (mean - grand).powi(2);
        within += (a - mean).powi(2) + (b - mean).powi(2);
    }
    let msb = between / (n - 1.0);
    let msw = within / n;
    let denominator = msb + msw;
    (denominator > 0.0).then(|| (msb - msw) / denominator)
}

/// Two markings of one script, by their markers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkedPair {
    pub first_marker: String,
    pub first: i32,
    pub second_marker: String,
    pub second: i32,
}

/// One marker's figures on a question.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkerFigures {
    pub marker: String,
    /// Scripts he marked (every submitted marking of his, any round).
    pub scripts: usize,
    pub mean: f64,
    /// The standard deviation of his totals (n − 1); none for one script.
    pub spread: Option<f64>,
    /// With the other marking of each double-marked script he marked, his total
    /// first.
    pub agreement: Option<Agreement>,
}

/// Each marker's figures, by name, from every submitted marking's (marker,
/// total) and the question's double-marked pairs.
pub fn marker_figures(
    markings: &[(String, i32)],
    pairs: &[MarkedPair],
    max: i32,
) -> Vec<MarkerFigures> {
    let mut markers: Vec<&str> = markings.iter().map(|(m, _)| m.as_str()).collect();
    markers.sort_unstable();
    markers.dedup();
    markers
        .into_iter()
        .map(|marker| {
            let totals: Vec<f64> = markings
                .iter()
                .filter(|(m, _)| m == marker)
                .map(|(_, total)| f64::from(*total))
                .collect();
            let oriented: Vec<(i32, i32)> = pairs
                .iter()
                .filter_map(|pair| {
                    if pair.first_marker == marker {
                        Some((pair.first, pair.second))
                    } else if pair.second_marker == marker {
                        Some((pair.second, pair.first))
                    } else {
                        None
                    }
                })
                .collect();
            let (mean, spread) = mean_and_spread(&totals);
            MarkerFigures {
                marker: marker.to_owned(),
                scripts: totals.len(),
                mean,
                spread,
                agreement: agreement(&oriented, max),
            }
        })
        .collect()
}

/// The mean and the standard deviation (n − 1; none for one value) of `values`,
/// which must not be empty.
pub(crate) fn mean_and_spread(values: &[f64]) -> (f64, Option<f64>) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let spread = (values.len() > 1)
        .then(|| (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt());
    (mean, spread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markings_alike_agree_fully_and_opposite_ones_below_chance() {
        let alike: Vec<(i32, i32)> = (0..=10).map(|m| (m, m)).collect();
        let figures = agreement(&alike, 10).unwrap();
        assert_eq!((figures.exact, figures.within_one), (1.0, 1.0));
        assert!((figures.quadratic_kappa.unwrap() - 1.0).abs() < 1e-12);
        assert!((figures.icc.unwrap() - 1.0).abs() < 1e-12);
        let opposite: Vec<(i32, i32)> = (0..=10).map(|m| (m, 10 - m)).collect();
        let figures = agreement(&opposite, 10).unwrap();
        assert!(figures.quadratic_kappa.unwrap() < 0.0);
        assert!(figures.icc.unwrap() < 0.0);
        // Only 5 and 5 are within one mark of each other.
        assert!((figures.within_one - 1.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn figures_without_spread_or_pairs_are_undefined_not_a_number() {
        assert_eq!(agreement(&[], 5), None);
        let same = agreement(&[(3, 3), (3, 3)], 5).unwrap();
        assert_eq!((same.quadratic_kappa, same.icc), (None, None));
        assert_eq!(agreement(&[(1, 2)], 5).unwrap().icc, None);
    }

    #[test]
    fn a_markers_agreement_puts_his_own_total_first() {
        let pair = |a: &str, x, b: &str, y| MarkedPair {
            first_marker: a.into(),
            first: x,
            second_marker: b.into(),
            second: y,
        };
        let pairs = [pair("ann", 4, "bob", 2), pair("bob", 3, "cid", 3)];
        let markings: Vec<(String, i32)> = [("ann", 4), ("bob", 2), ("bob", 3), ("cid", 3)]
            .iter()
            .map(|(m, t)| (m.to_string(), *t))
            .collect();
        let figures = marker_figures(&markings, &pairs, 5);
        let names: Vec<&str> = figures.iter().map(|f| f.marker.as_str()).collect();
        assert_eq!(names, ["ann", "bob", "cid"]);
        let bob = &figures[1];
        assert_eq!(bob.scripts, 2);
        assert!((bob.mean - 2.5).abs() < 1e-12);
        assert!((bob.spread.unwrap() - 0.5f64.sqrt()).abs() < 1e-12);
        let agreement = bob.agreement.as_ref().unwrap();
        assert_eq!((agreement.pairs, agreement.exact), (2, 0.5));
        assert_eq!(figures[0].spread, None);
    }
}
