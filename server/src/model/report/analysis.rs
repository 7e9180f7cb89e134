//! The item analysis of an assessment's final results (docs/statistics.md): the
//! test's and each question's figures ([`crate::model::statistics`]), and for
//! choice questions the share choosing each choice in the top and bottom 27 % of
//! the totals (Kelley's groups).

use crate::model::report::{AssessmentReport, ReportResult};
use crate::model::statistics::{
    item_statistics, test_statistics, ItemFlag, ItemStatistics, ScoreRow, TestStatistics,
};

/// The share of the results in each of the top and bottom groups.
pub const GROUP_SHARE: f64 = 0.27;

#[derive(Debug, Clone)]
pub struct Analysis {
    /// Results counted: final ones (Status 3, every answer scored).
    pub n: usize,
    /// Results left out: still to score, or not finished.
    pub left_out: usize,
    pub test: TestStatistics,
    /// One per question of the report, in its order.
    pub items: Vec<ItemAnalysis>,
    /// The size of each of the top and bottom groups.
    pub group_size: usize,
}

#[derive(Debug, Clone)]
pub struct ItemAnalysis {
    pub question_id: i64,
    /// 1, 2, ...: the question's place in the assessment.
    pub position: usize,
    pub max_score: i32,
    pub statistics: ItemStatistics,
    /// Choice questions only.
    pub choices: Vec<ChoiceAnalysis>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceAnalysis {
    pub order: i32,
    pub text: String,
    pub is_correct: bool,
    /// Shares (0 to 1) of all the final results, of the top group and of the
    /// bottom group that chose it; the groups' are None without groups.
    pub chosen: f64,
    pub top: Option<f64>,
    pub bottom: Option<f64>,
}

/// The figures over `report`'s final results.
pub fn analyse(report: &AssessmentReport) -> Analysis {
    let finals: Vec<&ReportResult> = report.results.iter().filter(|r| r.is_final()).collect();
    let rows: Vec<ScoreRow> = finals
        .iter()
        .map(|r| {
            r.answers
                .iter()
                .map(|a| f64::from(a.as_ref().and_then(|a| a.score).unwrap_or(0)))
                .collect()
        })
        .collect();
    let maxima: Vec<f64> = report
        .questions
        .iter()
        .map(|q| f64::from(q.max_score))
        .collect();
    let test = test_statistics(&rows);
    let (top, bottom) = kelley_groups(&rows);
    let items = item_statistics(&rows, &maxima)
        .into_iter()
        .zip(&report.questions)
        .enumerate()
        .map(|(j, (mut statistics, question))| {
            let share = |group: &[usize], order: i32| -> Option<f64> {
                (!group.is_empty()).then(|| {
                    let chose = group
                        .iter()
                        .filter(|&&i| chose(finals[i], j, order))
                        .count();
                    chose as f64 / group.len() as f64
                })
            };
            let all: Vec<usize> = (0..finals.len()).collect();
            let choices: Vec<ChoiceAnalysis> = question
                .choices
                .iter()
                .map(|choice| ChoiceAnalysis {
                    order: choice.order,
                    text: choice.text.clone(),
                    is_correct: choice.is_correct,
                    chosen: share(&all, choice.order).unwrap_or(0.0),
                    top: share(&top, choice.order),
                    bottom: share(&bottom, choice.order),
                })
                .collect();
            let favours_top = choices
                .iter()
                .any(|c| !c.is_correct && matches!((c.top, c.bottom), (Some(t), Some(b)) if t > b));
            if favours_top {
                statistics.flags.push(ItemFlag::WrongChoiceFavoursTop);
            }
            ItemAnalysis {
                question_id: question.id,
                position: j + 1,
                max_score: question.max_score,
                statistics,
                choices,
            }
        })
        .collect();
    Analysis {
        n: finals.len(),
        left_out: report.results.len() - finals.len(),
        test,
        items,
        group_size: top.len(),
    }
}

/// How many final results have each total, from 0 to the questions' maxima added
/// up (a total outside that range, which scoring never makes, counts at its end).
pub fn distribution(report: &AssessmentReport) -> Vec<u32> {
    let max: i32 = report.questions.iter().map(|q| q.max_score.max(0)).sum();
    let mut counts = vec![0u32; max as usize + 1];
    for result in report.results.iter().filter(|r| r.is_final()) {
        counts[result.total_score.clamp(0, max) as usize] += 1;
    }
    counts
}

fn chose(result: &ReportResult, question: usize, order: i32) -> bool {
    result.answers[question]
        .as_ref()
        .is_some_and(|a| a.chosen.contains(&order))
}

/// The indexes of the top and bottom 27 % of `rows` by total (rounded to the
/// nearest whole result). Ties at a group's edge go by the results' order, oldest
/// first, so the same results always give the same groups.
fn kelley_groups(rows: &[ScoreRow]) -> (Vec<usize>, Vec<usize>) {
    let size = (rows.len() as f64 * GROUP_SHARE).round() as usize;
    let totals: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
    let mut by_total: Vec<usize> = (0..rows.len()).collect();
    by_total.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]).then(a.cmp(&b)));
    let top = by_total[..size].to_vec();
    by_total.sort_by(|&a, &b| totals[a].total_cmp(&totals[b]).then(a.cmp(&b)));
    let bottom = by_total[..size].to_vec();
    (top, bottom)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::question_kind::QuestionKind;
    use crate::model::report::{AnswerScore, ReportChoice, ReportQuestion};

    fn question(id: i64, choices: &[(i32, bool)]) -> ReportQuestion {
        ReportQuestion {
            id,
            description: None,
            kind: Some(QuestionKind::MultipleChoice),
            max_score: 1,
            choices: choices
                .iter()
                .map(|&(order, is_correct)| ReportChoice {
                    order,
                    text: format!("choice {order}"),
                    is_correct,
                })
                .collect(),
        }
    }

    fn result(id: i32, answers: &[(i32, i32)]) -> ReportResult {
        ReportResult {
            id,
            status: 3,
            answers: answers
                .iter()
                .map(|&(score, chosen)| {
                    Some(AnswerScore {
                        score: Some(score),
                        chosen: vec![chosen],
                    })
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_wrong_choice_the_strong_prefer_is_flagged() {
        // Question 1 is keyed 1; the strong (who get question 2 right) choose 2.
        let mut results = Vec::new();
        for i in 0..10 {
            let strong = i < 5;
            results.push(result(
                i,
                &[
                    if strong { (0, 2) } else { (1, 1) },
                    if strong { (1, 1) } else { (0, 2) },
                    if strong { (1, 1) } else { (0, 2) },
                ],
            ));
        }
        let report = AssessmentReport {
            questions: vec![
                question(10, &[(1, true), (2, false)]),
                question(11, &[(1, true), (2, false)]),
                question(12, &[(1, true), (2, false)]),
            ],
            results,
            ..Default::default()
        };
        let analysis = analyse(&report);
        assert_eq!(analysis.n, 10);
        assert_eq!(analysis.group_size, 3, "27 % of 10, rounded");
        let first = &analysis.items[0];
        assert!(first
            .statistics
            .flags
            .contains(&ItemFlag::WrongChoiceFavoursTop));
        assert_eq!(first.choices[1].top, Some(1.0));
        assert_eq!(first.choices[1].bottom, Some(0.0));
        assert_eq!(first.choices[1].chosen, 0.5);
        assert!(!analysis.items[1]
            .statistics
            .flags
            .contains(&ItemFlag::WrongChoiceFavoursTop));
    }

    #[test]
    fn results_still_to_score_are_left_out() {
        let mut waiting = result(2, &[(1, 1)]);
        waiting.answers[0].as_mut().unwrap().score = None;
        let report = AssessmentReport {
            questions: vec![question(10, &[(1, true)])],
            results: vec![result(1, &[(1, 1)]), waiting],
            ..Default::default()
        };
        let analysis = analyse(&report);
        assert_eq!((analysis.n, analysis.left_out), (1, 1));
        assert_eq!(analysis.group_size, 0);
        assert_eq!(analysis.items[0].choices[0].top, None);
    }
}
