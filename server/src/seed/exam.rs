//! `seed --exam N`: a customer area with one assessment of 20 multiple-choice
//! questions and N final results, every answer scored, for the export and item
//! analysis benchmarks (docs/benchmarks.md). Answers follow one ability per
//! participant, so that the figures are those of a real test (alpha well above 0,
//! discriminations spread), from a fixed seed.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::model::question_kind::QuestionKind;
use crate::model::result_scores::{self, ScoredAnswer};
use crate::model::scoring_rule::ScoringRule;
use crate::store::seed_writes::{NewAnswer, NewQuestion, NewResult};
use crate::store::{now_millis, Store};

const QUESTIONS: i64 = 20;
const CHOICES: i32 = 4;
const RESULTS_PER_TRANSACTION: usize = 2_000;

/// Creates the area "Exam <N>" and fills it; returns its ID and the assessment's.
pub async fn seed_exam(store: &Store, results: usize) -> anyhow::Result<(i32, i64)> {
    let now = now_millis();
    let mut rng = ChaCha8Rng::seed_from_u64(results as u64 ^ 0x5eed);
    let mut tx = store.begin().await?;
    let area = tx.insert_customer(&format!("Exam {results}")).await?;
    let group = tx.insert_group(area, "Year 11", "benchmark class").await?;
    let assessment = 4_000_000_000_000_000 + i64::from(area.id()) * 100_000;
    tx.insert_assessment(assessment, area, "Benchmark exam", Some("en-GB"), "", now)
        .await?;
    let mut keys = Vec::new();
    for q in 1..=QUESTIONS {
        let question = assessment + q;
        tx.insert_question(&NewQuestion {
            id: question,
            area,
            question_type: QuestionKind::MultipleChoice.as_str(),
            description: "Benchmark question",
            revision: 1,
            language: Some("en-GB"),
            rule: &ScoringRule::Service,
            max_score: 1,
            topic_id: None,
            markup: "<div class=\"question\"><p>Choose one.</p></div>",
            shuffle_choices: false,
            at: now,
        })
        .await?;
        let key = rng.random_range(1..=CHOICES);
        for order in 1..=CHOICES {
            tx.insert_choice(
                area,
                question,
                order,
                &format!("Choice {order}"),
                order == key,
            )
            .await?;
        }
        tx.insert_assessment_question(area, assessment, q as i32, question)
            .await?;
        // Difficulty from easy to hard across the paper.
        keys.push((question, key, q as f64 / QUESTIONS as f64 - 0.5));
    }
    tx.commit().await?;
    let mut written = 0;
    while written < results {
        let batch = RESULTS_PER_TRANSACTION.min(results - written);
        let mut rows = Vec::with_capacity(batch);
        let mut chosen = Vec::with_capacity(batch);
        for i in 0..batch {
            let ability: f64 = rng.random_range(-1.5..1.5);
            let picks: Vec<(i32, bool)> = keys
                .iter()
                .map(|&(_, key, difficulty)| {
                    let chance = 1.0 / (1.0 + (-(ability - difficulty) * 2.0).exp());
                    if rng.random::<f64>() < chance {
                        (key, true)
                    } else {
                        let wrong = (key + rng.random_range(1..CHOICES) - 1) % CHOICES + 1;
                        (wrong, false)
                    }
                })
                .collect();
            let answers: Vec<ScoredAnswer> = picks
                .iter()
                .map(|&(_, right)| ScoredAnswer {
                    max_score: 1,
                    actual_score: Some(i32::from(right)),
                    topic: None,
                })
                .collect();
            let scores = result_scores::compute(&answers, &[]);
            let finished = now - rng.random_range(0..30 * 86_400_000i64);
            let n = written + i;
            rows.push(NewResult {
                area,
                assessment_id: assessment,
                participant_id: None,
                participant_name: format!("student{n:06}"),
                first_name: "Bench".into(),
                last_name: format!("Student {n}"),
                group_id: Some(group),
                group_name: Some("Year 11".into()),
                status: 3,
                max_score: scores.max_score,
                total_score: scores.total_score,
                percentage_score: scores.percentage_score,
                score_band_title: None,
                when_started: finished - 3_600_000,
                when_finished: finished,
                time_taken: 3600,
                language: "en-GB".into(),
                schedule_name: None,
                test_center_name: None,
                attempt_id: None,
            });
            chosen.push(picks);
        }
        let mut tx = store.begin().await?;
        let ids = tx.insert_results(&rows).await?;
        let answers: Vec<NewAnswer> = ids
            .iter()
            .zip(&chosen)
            .flat_map(|(&result_id, picks)| {
                keys.iter().zip(picks).enumerate().map(
                    move |(j, (&(question_id, _, _), &(pick, right)))| NewAnswer {
                        area,
                        question_id,
                        result_id,
                        occurrence: 1,
                        block_number: 1,
                        question_number: j as i32 + 1,
                        max_score: 1,
                        actual_score: Some(i32::from(right)),
                        media_type: "text/plain".into(),
                        content: pick.to_string().into_bytes(),
                    },
                )
            })
            .collect();
        tx.insert_answers(&answers).await?;
        tx.commit().await?;
        written += batch;
    }
    store.analyze().await?;
    Ok((area.id(), assessment))
}
