//! A result's scores from its answers: `TotalScore`, `PercentageScore` and
//! `ScoreBandTitle` of the Result, and one TopicScore per topic its questions belong
//! to. The seeds and the scoring workflow (a task set to 3) both compute them here,
//! so a scored result and a freshly delivered one can never disagree.

/// One answer of the result, as scoring sees it.
#[derive(Debug, Clone)]
pub struct ScoredAnswer {
    pub max_score: i32,
    /// `None` while the answer waits for a scorer; it counts as 0.
    pub actual_score: Option<i32>,
    pub topic: Option<Topic>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    pub id: i32,
    pub path: String,
}

/// A score band of the assessment: from `min_percentage` up to the next band.
#[derive(Debug, Clone)]
pub struct ScoreBand {
    pub min_percentage: i32,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ResultScores {
    pub total_score: i32,
    pub max_score: i32,
    /// Whole percent, rounded down (Result.PercentageScore is an Int16).
    pub percentage_score: i16,
    pub score_band_title: Option<String>,
    pub topics: Vec<TopicSubScore>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TopicSubScore {
    pub topic: Topic,
    pub total_score: i32,
    pub max_score: i32,
    /// Percent to two decimals (TopicScore.PercentageScore is a Double).
    pub percentage_score: f64,
    pub score_band_title: Option<String>,
    pub num_questions: i32,
}

/// Computes the scores of a result whose answers are `answers`, banded by `bands`.
pub fn compute(answers: &[ScoredAnswer], bands: &[ScoreBand]) -> ResultScores {
    let (total_score, max_score) = totals(answers.iter());
    let percentage_score = whole_percent(total_score, max_score);
    let mut topics: Vec<Topic> = answers.iter().filter_map(|a| a.topic.clone()).collect();
    topics.sort_by_key(|topic| topic.id);
    topics.dedup();
    let topics = topics
        .into_iter()
        .map(|topic| {
            let in_topic: Vec<&ScoredAnswer> = answers
                .iter()
                .filter(|a| a.topic.as_ref() == Some(&topic))
                .collect();
            let (total, max) = totals(in_topic.iter().copied());
            TopicSubScore {
                topic,
                total_score: total,
                max_score: max,
                percentage_score: hundredths_percent(total, max),
                score_band_title: band_for(bands, i32::from(whole_percent(total, max))),
                num_questions: in_topic.len() as i32,
            }
        })
        .collect();
    ResultScores {
        total_score,
        max_score,
        percentage_score,
        score_band_title: band_for(bands, i32::from(percentage_score)),
        topics,
    }
}

fn totals<'a>(answers: impl Iterator<Item = &'a ScoredAnswer>) -> (i32, i32) {
    answers.fold((0, 0), |(total, max), answer| {
        (
            total + answer.actual_score.unwrap_or(0),
            max + answer.max_score,
        )
    })
}

fn whole_percent(total: i32, max: i32) -> i16 {
    if max <= 0 {
        return 0;
    }
    let percent = i64::from(total) * 100 / i64::from(max);
    percent.clamp(0, 100) as i16
}

fn hundredths_percent(total: i32, max: i32) -> f64 {
    if max <= 0 {
        return 0.0;
    }
    (f64::from(total) * 10_000.0 / f64::from(max)).round() / 100.0
}

/// The band with the highest minimum not above `percentage`.
fn band_for(bands: &[ScoreBand], percentage: i32) -> Option<String> {
    bands
        .iter()
        .filter(|band| band.min_percentage <= percentage)
        .max_by_key(|band| band.min_percentage)
        .map(|band| band.title.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bands() -> Vec<ScoreBand> {
        [
            (50, "Pass"),
            (0, "Not yet"),
            (90, "Distinction"),
            (75, "Merit"),
        ]
        .into_iter()
        .map(|(min_percentage, title)| ScoreBand {
            min_percentage,
            title: title.into(),
        })
        .collect()
    }

    fn topic(id: i32) -> Option<Topic> {
        Some(Topic {
            id,
            path: format!("T{id}"),
        })
    }

    fn answer(max_score: i32, actual_score: Option<i32>, topic: Option<Topic>) -> ScoredAnswer {
        ScoredAnswer {
            max_score,
            actual_score,
            topic,
        }
    }

    #[test]
    fn unscored_answers_count_as_zero_towards_the_total_but_not_the_maximum() {
        let scores = compute(
            &[answer(4, Some(3), topic(1)), answer(6, None, topic(1))],
            &bands(),
        );
        assert_eq!((scores.total_score, scores.max_score), (3, 10));
        assert_eq!(scores.percentage_score, 30);
        assert_eq!(scores.score_band_title.as_deref(), Some("Not yet"));
    }

    #[test]
    fn the_percentage_rounds_down_and_picks_the_highest_band_reached() {
        let scores = compute(&[answer(3, Some(2), None)], &bands());
        assert_eq!(scores.percentage_score, 66);
        assert_eq!(scores.score_band_title.as_deref(), Some("Pass"));
        let scores = compute(&[answer(10, Some(9), None)], &bands());
        assert_eq!(scores.score_band_title.as_deref(), Some("Distinction"));
    }

    #[test]
    fn each_topic_gets_its_own_sub_score_in_topic_order() {
        let scores = compute(
            &[
                answer(4, Some(4), topic(2)),
                answer(4, Some(1), topic(1)),
                answer(2, Some(0), topic(2)),
                answer(5, Some(5), None),
            ],
            &bands(),
        );
        assert_eq!(scores.total_score, 10);
        let topics: Vec<(i32, i32, i32, f64, i32)> = scores
            .topics
            .iter()
            .map(|t| {
                (
                    t.topic.id,
                    t.total_score,
                    t.max_score,
                    t.percentage_score,
                    t.num_questions,
                )
            })
            .collect();
        assert_eq!(topics, vec![(1, 1, 4, 25.0, 1), (2, 4, 6, 66.67, 2)]);
        assert_eq!(scores.topics[1].score_band_title.as_deref(), Some("Pass"));
    }

    #[test]
    fn a_result_without_a_maximum_scores_zero_percent_and_no_band_without_bands() {
        let scores = compute(&[answer(0, None, None)], &[]);
        assert_eq!(scores.percentage_score, 0);
        assert_eq!(scores.score_band_title, None);
    }
}
