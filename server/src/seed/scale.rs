//! `seed --scale N`: a customer area with N finished results, each with one unscored
//! essay answer and so one scoring task, spread over 100 groups (`Group-000` to
//! `Group-099`), for benchmarks at a realistic size. Each question has a rubric of
//! two dimensions, so that the tasks can be scored.

use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::model::finalise::{scoring_tasks_for, FinalisedResult};
use crate::model::question_kind::QuestionKind;
use crate::model::scoring_rule::ScoringRule;
use crate::store::seed_writes::{NewAnswer, NewQuestion, NewResult};
use crate::store::{now_millis, Store};

pub const SCALE_GROUPS: usize = 100;
const ASSESSMENTS: i64 = 10;
/// Results written per transaction: large enough to be fast, small enough that an
/// interrupted run keeps what it finished.
const RESULTS_PER_TRANSACTION: usize = 5_000;

/// The year the results were finished in, in milliseconds.
const YEAR_MS: i64 = 365 * 86_400_000;

/// When the `index`th of `results` results was finished: over the last year, in the
/// order they are written, a little apart at random. Results come in as they are
/// finished, so their IDs rise with their finish times, as a real service's do; and
/// every index by finish time (the queue's) is then written at its end, not all
/// over as with times drawn at random: 1,000,000 results in 69 s instead of 124 s
/// (docs/benchmarks.md, "Scale seeds in time order").
fn finished_at(now: i64, index: usize, results: usize, rng: &mut ChaCha8Rng) -> i64 {
    let step = YEAR_MS / results.max(1) as i64;
    now - YEAR_MS + index as i64 * step + rng.random_range(0..step.max(1))
}

/// Creates the area "Scale <N>" and fills it; returns its customer ID.
pub async fn seed_scale(store: &Store, results: usize, progress: bool) -> anyhow::Result<i32> {
    let now = now_millis();
    let mut rng = ChaCha8Rng::seed_from_u64(results as u64);
    let mut tx = store.begin().await?;
    let area = tx.insert_customer(&format!("Scale {results}")).await?;
    let mut groups = Vec::with_capacity(SCALE_GROUPS);
    for g in 0..SCALE_GROUPS {
        groups.push((
            tx.insert_group(area, &format!("Group-{g:03}"), "benchmark group")
                .await?,
            format!("Group-{g:03}"),
        ));
    }
    let id_base = 3_000_000_000_000_000 + i64::from(area.id()) * 100_000;
    let mut questions = Vec::new();
    for a in 0..ASSESSMENTS {
        let assessment = id_base + a * 1000;
        tx.insert_assessment(
            assessment,
            area,
            &format!("Benchmark assessment {a}"),
            Some("en-GB"),
            "",
            now,
        )
        .await?;
        let question = assessment + 1;
        tx.insert_question(&NewQuestion {
            id: question,
            area,
            question_type: QuestionKind::Essay.as_str(),
            description: "Benchmark essay",
            revision: 1,
            language: Some("en-GB"),
            rule: &ScoringRule::Service,
            max_score: 10,
            topic_id: None,
            markup: "<div class=\"question\"><p>Write about anything.</p></div>",
            shuffle_choices: false,
            at: now,
        })
        .await?;
        tx.insert_assessment_question(area, assessment, 1, question)
            .await?;
        // A rubric, so that every task can be scored through the whole workflow.
        let rubric = tx
            .insert_rubric(
                area,
                question,
                "Benchmark rubric",
                "Score each dimension.",
                10,
                now,
            )
            .await?;
        for (order, name) in [(1, "Content"), (2, "Expression")] {
            tx.insert_dimension(area, rubric, order, name, "From 0 to 5.", 5)
                .await?;
        }
        questions.push((assessment, question));
    }
    tx.commit().await?;

    let bar = if progress {
        ProgressBar::new(results as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(ProgressStyle::with_template(
        "{bar:40} {pos}/{len} results ({per_sec}, {eta} left)",
    )?);
    let mut written = 0;
    while written < results {
        let batch = RESULTS_PER_TRANSACTION.min(results - written);
        let mut rows = Vec::with_capacity(batch);
        for k in 0..batch {
            let (assessment, _) = questions[rng.random_range(0..questions.len())];
            let (group_id, group_name) = &groups[rng.random_range(0..groups.len())];
            let finished = finished_at(now, written + k, results, &mut rng);
            let participant = rng.random_range(0..100_000);
            rows.push(NewResult {
                area,
                assessment_id: assessment,
                participant_id: None,
                participant_name: format!("participant{participant:05}"),
                first_name: "Bench".into(),
                last_name: format!("Participant {participant}"),
                group_id: Some(*group_id),
                group_name: Some(group_name.clone()),
                status: 3,
                max_score: 10,
                total_score: 0,
                percentage_score: 0,
                score_band_title: None,
                when_started: finished - 1_800_000,
                when_finished: finished,
                time_taken: 1800,
                language: "en-GB".into(),
                schedule_name: None,
                test_center_name: None,
                attempt_id: None,
            });
        }
        let mut tx = store.begin().await?;
        let ids = tx.insert_results(&rows).await?;
        let answers: Vec<NewAnswer> = rows
            .iter()
            .zip(&ids)
            .map(|(row, &result_id)| NewAnswer {
                area,
                question_id: row.assessment_id + 1,
                result_id,
                occurrence: 1,
                block_number: 1,
                question_number: 1,
                max_score: 10,
                actual_score: None,
                media_type: "text/plain; charset=utf-8".into(),
                content: b"A benchmark answer.".to_vec(),
            })
            .collect();
        tx.insert_answers(&answers).await?;
        let tasks: Vec<_> = rows
            .iter()
            .zip(&answers)
            .flat_map(|(row, answer)| {
                let finalised = FinalisedResult {
                    area,
                    group_id: row.group_id,
                    assessment_id: row.assessment_id,
                    finished_at: row.when_finished,
                };
                scoring_tasks_for([answer.finalised()], finalised)
            })
            .collect();
        tx.insert_scoring_tasks(&tasks).await?;
        tx.commit().await?;
        written += batch;
        bar.set_position(written as u64);
    }
    bar.finish();
    store.analyze().await?;
    Ok(area.id())
}
