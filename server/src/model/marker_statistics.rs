//! Each marker's figures on a question beside the agreement of double marking
//! (docs/marking-quality.md, "Figures"): how many scripts he marked, at what pace,
//! how his marks sit against everyone else's on the same question, and whether
//! they drift as he goes. Pure functions over the scripts each marker marked
//! (a marking of a double-marked task, or the final mark of a task marked once);
//! `feeds/marking/marker_statistics.rs` serves them.

use std::collections::BTreeMap;

use crate::model::agreement::mean_and_spread;

/// A gap between two scripts longer than this is a break, not marking time.
pub const BREAK_MS: i64 = 30 * 60 * 1000;
/// A marker's scripts are taken this many at a time, in the order he marked
/// them, for the drift plot.
pub const DRIFT_WINDOW: usize = 20;
/// Below this many scripts, a marker's drift is not computed: scripts differ far
/// more than a marker drifts, so a slope through a handful of them is mostly the
/// scripts' own differences (a lead saw "+14 per 100" on 12 well-marked scripts).
const DRIFT_AT_LEAST: usize = DRIFT_WINDOW;

/// One script as one marker marked it: his total and when he finished it
/// (milliseconds since 1970).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkedScript {
    pub result_id: i32,
    pub marker: String,
    pub total: i32,
    pub at: i64,
}

/// How fast a marker (or everyone) marks: from the gaps between one finished
/// script and the next, breaks left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Pace {
    /// The median gap, in seconds; none without two scripts in one sitting.
    pub median_seconds: Option<f64>,
    /// 3,600 over the median gap; none when the median is none or zero.
    pub scripts_per_hour: Option<f64>,
    /// The gaps that were not breaks, added up.
    pub marking_minutes: f64,
}

/// One marker's figures on the question.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkerStatistics {
    pub marker: String,
    pub scripts: usize,
    pub mean: f64,
    /// The standard deviation of his totals (n − 1); none for one script.
    pub spread: Option<f64>,
    /// His mean less the mean of every other marker's scripts of the question;
    /// none when nobody else marked it.
    pub mean_difference: Option<f64>,
    /// That difference over its standard error (Welch's): beyond ±2 it is
    /// unlikely to be chance. None when either side has fewer than two scripts
    /// or neither has any spread.
    pub mean_difference_z: Option<f64>,
    pub pace: Pace,
    /// The least-squares slope of his totals over his scripts in the order he
    /// marked them, in marks per 100 scripts: negative, he grows harsher.
    pub drift_per_hundred: Option<f64>,
    pub first_at: i64,
    pub last_at: i64,
}

/// The question's own line: every script of every marker.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionFigures {
    pub scripts: usize,
    pub markers: usize,
    pub mean: Option<f64>,
    pub spread: Option<f64>,
    /// Every marker's gaps pooled (never a gap from one marker's script to
    /// another's).
    pub pace: Pace,
}

/// A stretch of one marker's scripts, `DRIFT_WINDOW` of them (the last may have
/// fewer), in the order he marked them.
#[derive(Debug, Clone, PartialEq)]
pub struct DriftWindow {
    pub marker: String,
    /// 1 for his first scripts.
    pub window: usize,
    pub scripts: usize,
    pub from_at: i64,
    pub to_at: i64,
    pub mean: f64,
    /// The window's mean less the question's mean over every script.
    pub difference: f64,
}

/// The markers' names in order, each with his scripts in the order he marked
/// them (time, then result, so that ties come out the same every time).
fn by_marker(scripts: &[MarkedScript]) -> Vec<(&str, Vec<&MarkedScript>)> {
    // One pass: a question's scripts are many, its markers tens.
    let mut markers: BTreeMap<&str, Vec<&MarkedScript>> = BTreeMap::new();
    for script in scripts {
        markers
            .entry(script.marker.as_str())
            .or_default()
            .push(script);
    }
    markers
        .into_iter()
        .map(|(marker, mut his)| {
            his.sort_by_key(|s| (s.at, s.result_id));
            (marker, his)
        })
        .collect()
}

/// The gaps, in milliseconds, between one of his scripts and his next that are
/// not breaks.
fn gaps(ordered: &[&MarkedScript]) -> Vec<i64> {
    ordered
        .windows(2)
        .map(|pair| pair[1].at - pair[0].at)
        .filter(|gap| (0..=BREAK_MS).contains(gap))
        .collect()
}

fn pace_of(mut gaps: Vec<i64>) -> Pace {
    gaps.sort_unstable();
    let median_ms = match gaps.len() {
        0 => None,
        n if n % 2 == 1 => Some(gaps[n / 2] as f64),
        n => Some((gaps[n / 2 - 1] + gaps[n / 2]) as f64 / 2.0),
    };
    let median_seconds = median_ms.map(|ms| ms / 1000.0);
    Pace {
        median_seconds,
        scripts_per_hour: median_seconds.filter(|s| *s > 0.0).map(|s| 3600.0 / s),
        marking_minutes: gaps.iter().sum::<i64>() as f64 / 60_000.0,
    }
}

/// The least-squares slope of `values` over 0, 1, 2, ….
pub(crate) fn slope(values: &[f64]) -> Option<f64> {
    let n = values.len() as f64;
    let mean_x = (n - 1.0) / 2.0;
    let mean_y = values.iter().sum::<f64>() / n;
    let (mut covariance, mut variance) = (0.0, 0.0);
    for (i, y) in values.iter().enumerate() {
        let dx = i as f64 - mean_x;
        covariance += dx * (y - mean_y);
        variance += dx * dx;
    }
    (variance > 0.0).then(|| covariance / variance)
}

/// Count, sum and sum of squares of totals: everyone's less one marker's are
/// the others', without reading every script again for each marker. Totals are
/// whole marks, so the sums are exact.
#[derive(Clone, Copy, Default)]
struct Moments {
    n: f64,
    sum: f64,
    squares: f64,
}

impl Moments {
    fn of<'a>(scripts: impl IntoIterator<Item = &'a MarkedScript>) -> Self {
        scripts.into_iter().fold(Self::default(), |m, s| {
            let total = f64::from(s.total);
            Self {
                n: m.n + 1.0,
                sum: m.sum + total,
                squares: m.squares + total * total,
            }
        })
    }

    fn less(self, other: Self) -> Self {
        Self {
            n: self.n - other.n,
            sum: self.sum - other.sum,
            squares: self.squares - other.squares,
        }
    }

    fn mean(self) -> f64 {
        self.sum / self.n
    }

    /// The variance (n − 1).
    fn variance(self) -> f64 {
        ((self.squares - self.sum * self.sum / self.n) / (self.n - 1.0)).max(0.0)
    }
}

/// Welch's z of mean a − mean b; none without two values a side or any spread.
fn difference_z(a: Moments, b: Moments) -> Option<f64> {
    if a.n < 2.0 || b.n < 2.0 {
        return None;
    }
    let error = (a.variance() / a.n + b.variance() / b.n).sqrt();
    (error > 0.0).then(|| (a.mean() - b.mean()) / error)
}

fn totals<'a>(scripts: impl IntoIterator<Item = &'a MarkedScript>) -> Vec<f64> {
    scripts.into_iter().map(|s| f64::from(s.total)).collect()
}

/// The question's line over every marker's scripts.
pub fn question_figures(scripts: &[MarkedScript]) -> QuestionFigures {
    let markers = by_marker(scripts);
    let all = totals(scripts);
    let (mean, spread) = if all.is_empty() {
        (None, None)
    } else {
        let (mean, spread) = mean_and_spread(&all);
        (Some(mean), spread)
    };
    QuestionFigures {
        scripts: scripts.len(),
        markers: markers.len(),
        mean,
        spread,
        pace: pace_of(markers.iter().flat_map(|(_, his)| gaps(his)).collect()),
    }
}

/// Each marker's figures, by name.
pub fn marker_statistics(scripts: &[MarkedScript]) -> Vec<MarkerStatistics> {
    let everyone = Moments::of(scripts);
    by_marker(scripts)
        .into_iter()
        .map(|(marker, his)| {
            let mine = totals(his.iter().copied());
            let (mean, spread) = mean_and_spread(&mine);
            let his_moments = Moments::of(his.iter().copied());
            let others = everyone.less(his_moments);
            let mean_difference = (others.n > 0.0).then(|| mean - others.mean());
            MarkerStatistics {
                marker: marker.to_owned(),
                scripts: his.len(),
                mean,
                spread,
                mean_difference,
                mean_difference_z: difference_z(his_moments, others),
                pace: pace_of(gaps(&his)),
                drift_per_hundred: (mine.len() >= DRIFT_AT_LEAST)
                    .then(|| slope(&mine))
                    .flatten()
                    .map(|per_script| per_script * 100.0),
                first_at: his.first().map_or(0, |s| s.at),
                last_at: his.last().map_or(0, |s| s.at),
            }
        })
        .collect()
}

/// Each marker's scripts `DRIFT_WINDOW` at a time, against the question's mean.
pub fn drift_windows(scripts: &[MarkedScript]) -> Vec<DriftWindow> {
    let Some(question_mean) = question_figures(scripts).mean else {
        return Vec::new();
    };
    by_marker(scripts)
        .into_iter()
        .flat_map(|(marker, his)| {
            his.chunks(DRIFT_WINDOW)
                .enumerate()
                .map(|(at, chunk)| {
                    let mean = mean_and_spread(&totals(chunk.iter().copied())).0;
                    DriftWindow {
                        marker: marker.to_owned(),
                        window: at + 1,
                        scripts: chunk.len(),
                        from_at: chunk.first().map_or(0, |s| s.at),
                        to_at: chunk.last().map_or(0, |s| s.at),
                        mean,
                        difference: mean - question_mean,
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(result_id: i32, marker: &str, total: i32, minute: i64) -> MarkedScript {
        MarkedScript {
            result_id,
            marker: marker.into(),
            total,
            at: minute * 60_000,
        }
    }

    #[test]
    fn pace_is_the_median_gap_with_breaks_left_out() {
        // Gaps of 2, 4 and 3 minutes, then a 45-minute break, then 5.
        let scripts = [
            script(1, "ann", 3, 0),
            script(2, "ann", 3, 2),
            script(3, "ann", 3, 6),
            script(4, "ann", 3, 9),
            script(5, "ann", 3, 54),
            script(6, "ann", 3, 59),
        ];
        let ann = &marker_statistics(&scripts)[0];
        assert_eq!(ann.pace.median_seconds, Some(3.5 * 60.0));
        assert!((ann.pace.scripts_per_hour.unwrap() - 3600.0 / 210.0).abs() < 1e-12);
        assert!((ann.pace.marking_minutes - 14.0).abs() < 1e-12);
        assert_eq!((ann.first_at, ann.last_at), (0, 59 * 60_000));
    }

    #[test]
    fn one_script_or_scripts_far_apart_have_no_pace() {
        let alone = marker_statistics(&[script(1, "ann", 3, 0)]);
        assert_eq!(alone[0].pace.median_seconds, None);
        assert_eq!(alone[0].pace.scripts_per_hour, None);
        let apart = marker_statistics(&[script(1, "ann", 3, 0), script(2, "ann", 3, 31)]);
        assert_eq!(apart[0].pace.median_seconds, None);
        let same_moment = marker_statistics(&[script(1, "ann", 3, 0), script(2, "ann", 3, 0)]);
        assert_eq!(same_moment[0].pace.median_seconds, Some(0.0));
        assert_eq!(same_moment[0].pace.scripts_per_hour, None);
    }

    #[test]
    fn the_question_pools_gaps_but_never_across_markers() {
        // Ann at minutes 0 and 10, Bob at 1 and 3: a gap of 1 (Ann to Bob) is no gap.
        let scripts = [
            script(1, "ann", 3, 0),
            script(2, "bob", 3, 1),
            script(3, "bob", 3, 3),
            script(4, "ann", 3, 10),
        ];
        let question = question_figures(&scripts);
        assert_eq!(question.pace.median_seconds, Some(6.0 * 60.0));
        assert_eq!((question.scripts, question.markers), (4, 2));
    }

    #[test]
    fn a_harsh_marker_stands_out_and_one_in_line_does_not() {
        let mut scripts = Vec::new();
        for i in 0..30 {
            // Everyone marks 4, 5, 6 in turn; Cid marks two lower.
            let mark = 4 + i % 3;
            scripts.push(script(i, "ann", mark, i64::from(i)));
            scripts.push(script(100 + i, "bob", mark, i64::from(i)));
            scripts.push(script(200 + i, "cid", mark - 2, i64::from(i)));
        }
        let figures = marker_statistics(&scripts);
        let (ann, cid) = (&figures[0], &figures[2]);
        assert!((ann.mean_difference.unwrap() - 1.0).abs() < 1e-12);
        assert!((cid.mean_difference.unwrap() + 2.0).abs() < 1e-12);
        assert!(cid.mean_difference_z.unwrap() < -2.0);
        assert!(ann.mean_difference_z.unwrap().abs() < cid.mean_difference_z.unwrap().abs());
        // Nobody else marked it: no difference at all.
        let alone = marker_statistics(&[script(1, "ann", 3, 0), script(2, "ann", 4, 1)]);
        assert_eq!(
            (alone[0].mean_difference, alone[0].mean_difference_z),
            (None, None)
        );
    }

    #[test]
    fn drift_is_the_slope_per_hundred_scripts_and_windows_follow_it() {
        // Ann starts at 8 and loses a mark every ten scripts: −10 per hundred.
        let scripts: Vec<MarkedScript> = (0..50)
            .map(|i| script(i, "ann", 8 - i / 10, i64::from(i)))
            .chain((0..50).map(|i| script(100 + i, "bob", 6, i64::from(i))))
            .collect();
        let figures = marker_statistics(&scripts);
        let ann = &figures[0];
        assert!((ann.drift_per_hundred.unwrap() + 10.0).abs() < 0.5);
        assert_eq!(figures[1].drift_per_hundred, Some(0.0));
        let windows: Vec<DriftWindow> = drift_windows(&scripts)
            .into_iter()
            .filter(|w| w.marker == "ann")
            .collect();
        let sizes: Vec<usize> = windows.iter().map(|w| w.scripts).collect();
        assert_eq!(sizes, [20, 20, 10]);
        // The question's mean is (300 + 6 × 50) / 100 = 6: Ann's first window,
        // 8 × 10 and 7 × 10, is 1.5 above it.
        assert!((windows[0].difference - 1.5).abs() < 1e-12);
        assert!(windows[2].difference < windows[0].difference);
        assert_eq!(
            (windows[1].from_at, windows[1].to_at),
            (20 * 60_000, 39 * 60_000)
        );
        assert!(marker_statistics(&scripts[..2])[0]
            .drift_per_hundred
            .is_none());
        assert!(drift_windows(&[]).is_empty());
    }
}
