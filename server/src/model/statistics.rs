//! Item analysis over an assessment's final results (issue 34, docs/statistics.md):
//! the scores of N results on k questions in, the figures a coordinator reads out.
//! Pure arithmetic over a score matrix; the store gathers the matrix.

/// One result's scores, one per question in the assessment's order.
pub type ScoreRow = Vec<f64>;

/// The whole test's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct TestStatistics {
    pub n: usize,
    pub mean: f64,
    /// Of the totals, with N − 1 (the sample's); None below two results.
    pub standard_deviation: Option<f64>,
    /// Cronbach's alpha (equal to KR-20 where every question is scored 0 or 1);
    /// None below two questions or when the totals do not vary.
    pub alpha: Option<f64>,
    /// Whether every score is 0 or 1 (alpha is then KR-20).
    pub dichotomous: bool,
    /// SD × √(1 − alpha).
    pub standard_error_of_measurement: Option<f64>,
}

/// One question's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemStatistics {
    /// Mean score over the question's maximum.
    pub facility: f64,
    /// The corrected item-total point-biserial: Pearson's r between the question's
    /// score and the total without it; None when either does not vary.
    pub discrimination: Option<f64>,
    pub flags: Vec<ItemFlag>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemFlag {
    /// Facility below 0.2.
    TooHard,
    /// Facility above 0.9.
    TooEasy,
    /// Discrimination below 0.2 (or none).
    WeakDiscrimination,
    /// A wrong choice chosen by more of the top 27 % than of the bottom 27 %
    /// (model::report::analysis): the key or the choice may be at fault.
    WrongChoiceFavoursTop,
}

impl ItemFlag {
    /// The name an export and the `ItemStatistics` feed give the flag.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemFlag::TooHard => "TooHard",
            ItemFlag::TooEasy => "TooEasy",
            ItemFlag::WeakDiscrimination => "WeakDiscrimination",
            ItemFlag::WrongChoiceFavoursTop => "WrongChoiceFavoursTop",
        }
    }
}

fn mean(values: impl Iterator<Item = f64> + Clone) -> f64 {
    let (sum, count) = values.fold((0.0, 0usize), |(s, c), v| (s + v, c + 1));
    sum / count as f64
}

/// The sum of squared deviations from the mean.
fn squares(values: &[f64]) -> f64 {
    let m = mean(values.iter().copied());
    values.iter().map(|v| (v - m) * (v - m)).sum()
}

/// Pearson's r; None when either side does not vary.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let (mx, my) = (mean(x.iter().copied()), mean(y.iter().copied()));
    let mut sxy = 0.0;
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
    }
    let (sxx, syy) = (squares(x), squares(y));
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// The test's figures over `rows` (each the same length).
pub fn test_statistics(rows: &[ScoreRow]) -> TestStatistics {
    let n = rows.len();
    let k = rows.first().map_or(0, Vec::len);
    let totals: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
    let mean_total = if n == 0 {
        0.0
    } else {
        mean(totals.iter().copied())
    };
    let total_squares = squares(&totals);
    let standard_deviation = (n >= 2).then(|| (total_squares / (n - 1) as f64).sqrt());
    let item_squares: f64 = (0..k)
        .map(|j| squares(&rows.iter().map(|r| r[j]).collect::<Vec<_>>()))
        .sum();
    // The ratio of variances is the same with N or N − 1: the sums of squares serve.
    let alpha = (n >= 2 && k >= 2 && total_squares > 0.0)
        .then(|| k as f64 / (k - 1) as f64 * (1.0 - item_squares / total_squares));
    let dichotomous = rows.iter().flatten().all(|&v| v == 0.0 || v == 1.0);
    let standard_error_of_measurement = match (standard_deviation, alpha) {
        (Some(sd), Some(a)) => Some(sd * (1.0 - a).max(0.0).sqrt()),
        _ => None,
    };
    TestStatistics {
        n,
        mean: mean_total,
        standard_deviation,
        alpha,
        dichotomous,
        standard_error_of_measurement,
    }
}

/// Each question's figures over `rows`, given the questions' maxima.
pub fn item_statistics(rows: &[ScoreRow], maxima: &[f64]) -> Vec<ItemStatistics> {
    let totals: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
    maxima
        .iter()
        .enumerate()
        .map(|(j, &max)| {
            let item: Vec<f64> = rows.iter().map(|r| r[j]).collect();
            let rest: Vec<f64> = totals.iter().zip(&item).map(|(t, x)| t - x).collect();
            let facility = if rows.is_empty() || max <= 0.0 {
                0.0
            } else {
                mean(item.iter().copied()) / max
            };
            let discrimination = pearson(&item, &rest);
            let mut flags = Vec::new();
            if facility < 0.2 {
                flags.push(ItemFlag::TooHard);
            }
            if facility > 0.9 {
                flags.push(ItemFlag::TooEasy);
            }
            if discrimination.is_none_or(|d| d < 0.2) {
                flags.push(ItemFlag::WeakDiscrimination);
            }
            ItemStatistics {
                facility,
                discrimination,
                flags,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfectly_consistent_test_has_alpha_one_and_no_error() {
        let rows = vec![vec![0.0, 0.0], vec![1.0, 1.0], vec![2.0, 2.0]];
        let stats = test_statistics(&rows);
        assert!((stats.alpha.unwrap() - 1.0).abs() < 1e-12);
        assert!(stats.standard_error_of_measurement.unwrap().abs() < 1e-12);
        assert_eq!(stats.mean, 2.0);
        assert!(!stats.dichotomous);
    }

    #[test]
    fn nothing_varies_nothing_is_claimed() {
        let rows = vec![vec![1.0, 1.0], vec![1.0, 1.0]];
        let stats = test_statistics(&rows);
        assert_eq!(stats.alpha, None);
        let items = item_statistics(&rows, &[1.0, 1.0]);
        assert_eq!(items[0].discrimination, None);
        assert_eq!(
            items[0].flags,
            vec![ItemFlag::TooEasy, ItemFlag::WeakDiscrimination]
        );
        assert_eq!(test_statistics(&[]).standard_deviation, None);
    }
}
