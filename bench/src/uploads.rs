//! Answer uploads through the API (issue 14): a 50-question assessment of single-
//! and multiple-choice questions and typed essays is added to the scale area, a
//! snapshot and a print batch are made through the API, one attempt per upload is
//! written directly (preparation, not measured), and then `workers` clients POST
//! the upload files while a scorer's client polls its Q1 queue every 100 ms, whose
//! latency while uploads run is the second figure.

use std::time::Instant;

use anyhow::{bail, Context};
use reqwest::Client;
use serde_json::{json, Value};

use scoredesk_server::model::area::CustomerArea;
use scoredesk_server::model::question_kind::QuestionKind;
use scoredesk_server::model::scoring_rule::ScoringRule;
use scoredesk_server::store::seed_writes::NewQuestion;
use scoredesk_server::store::{now_millis, NewAttempt, Store};

use crate::polling;

/// Questions of the uploaded assessment; every fifth an essay.
const QUESTIONS: i64 = 50;
const CHOICES: i32 = 4;

pub struct Figures {
    pub uploads: usize,
    pub seconds: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub polls: usize,
    pub poll_p99_ms: f64,
}

impl Figures {
    pub fn per_second(&self) -> f64 {
        self.uploads as f64 / self.seconds
    }
}

fn kind_of(question: i64) -> QuestionKind {
    if question % 5 == 0 {
        QuestionKind::Essay
    } else if question % 7 == 0 {
        QuestionKind::MultipleResponse
    } else {
        QuestionKind::MultipleChoice
    }
}

/// The assessment, snapshot, batch and `count` attempts; returns the upload files.
pub async fn prepare(
    store: &Store,
    root: &str,
    user: &str,
    password: &str,
    customer: i32,
    count: usize,
) -> anyhow::Result<Vec<Vec<u8>>> {
    let area = CustomerArea::new(customer).context("the scale area")?;
    let now = now_millis();
    let assessment = 3_900_000_000_000_000 + i64::from(customer) * 100_000;
    let mut tx = store.begin().await?;
    let topic = tx.insert_topic(area, None, "Uploads", "Uploads").await?;
    let group = tx.insert_group(area, "Uploads", "upload benchmark").await?;
    let participant = tx
        .insert_participant(
            area,
            "upload-bench",
            "Upload",
            "Bench",
            "upload@bench.invalid",
        )
        .await?;
    tx.insert_assessment(assessment, area, "Upload benchmark", Some("en-GB"), "", now)
        .await?;
    for number in 1..=QUESTIONS {
        let id = assessment + number;
        let kind = kind_of(number);
        tx.insert_question(&NewQuestion {
            id,
            area,
            question_type: kind.as_str(),
            description: "Upload benchmark question",
            revision: 1,
            language: Some("en-GB"),
            rule: &ScoringRule::Service,
            max_score: if kind == QuestionKind::Essay { 6 } else { 2 },
            topic_id: Some(topic),
            markup: "<div class=\"question\"><p class=\"stem\">A question.</p></div>",
            shuffle_choices: kind == QuestionKind::MultipleChoice,
            at: now,
        })
        .await?;
        if kind != QuestionKind::Essay {
            for order in 1..=CHOICES {
                tx.insert_choice(area, id, order, &format!("Choice {order}"), order % 2 == 1)
                    .await?;
            }
        }
        tx.insert_assessment_question(area, assessment, number as i32, id)
            .await?;
    }
    tx.commit().await?;
    let client = Client::new();
    let post = |set: &str, body: Value| {
        client
            .post(format!("{root}/{set}"))
            .basic_auth(user, Some(password))
            .json(&body)
            .send()
    };
    let snapshot: Value = post(
        "AssessmentSnapshots",
        json!({"AssessmentID": assessment.to_string()}),
    )
    .await?
    .error_for_status()?
    .json()
    .await?;
    let snapshot = snapshot["ID"].as_i64().context("snapshot ID")? as i32;
    let batch: Value = post(
        "PrintBatches",
        json!({"GroupID": group, "SnapshotID": snapshot}),
    )
    .await?
    .error_for_status()?
    .json()
    .await?;
    let batch = batch["ID"].as_i64().context("batch ID")?;
    let mut tx = store.begin().await?;
    let mut attempts = Vec::with_capacity(count);
    for n in 0..count {
        attempts.push(
            tx.insert_attempt(
                area,
                &NewAttempt {
                    participant_id: participant,
                    assessment_id: assessment,
                    snapshot_id: Some(snapshot),
                    external_attempt_id: Some(&format!("upload-bench-{n}")),
                    at: now,
                },
            )
            .await?,
        );
    }
    tx.commit().await?;
    Ok(attempts
        .iter()
        .enumerate()
        .map(|(n, attempt)| file(*attempt, batch, n))
        .collect())
}

/// One participant's answers: every question answered, varied by `n`.
fn file(attempt: i32, batch: i64, n: usize) -> Vec<u8> {
    let questions: Vec<Value> = (1..=QUESTIONS)
        .map(|number| match kind_of(number) {
            QuestionKind::Essay | QuestionKind::TextEntry => json!({
                "QuestionOrderNumber": number,
                "TextResponse": format!("Answer {n} to question {number}: a paragraph of reasoning, long enough to read like a participant's, about the forces at work and why the result follows from them."),
            }),
            QuestionKind::MultipleChoice => json!({
                "QuestionOrderNumber": number,
                "UploadedChoices": [{"ChoiceOrderNumber": ((n + number as usize) % 4 + 1).to_string(), "Selected": true}],
            }),
            QuestionKind::MultipleResponse => json!({
                "QuestionOrderNumber": number,
                "UploadedChoices": [{"ChoiceOrderNumber": "1", "Selected": true}, {"ChoiceOrderNumber": "3", "Selected": n.is_multiple_of(2)}],
            }),
            // The bench's demo content has no matching, blanks or point questions.
            QuestionKind::Matching | QuestionKind::FillIn | QuestionKind::Point => {
                json!({"QuestionOrderNumber": number})
            }
        })
        .collect();
    serde_json::to_vec(&json!({"AttemptID": attempt, "BatchID": batch.to_string(), "QuestionAndChoices": questions}))
        .unwrap_or_default()
}

/// Posts every file with `workers` clients while a scorer polls `poll`.
pub async fn run(
    root: &str,
    user: &str,
    password: &str,
    files: Vec<Vec<u8>>,
    workers: usize,
    poll: &str,
) -> anyhow::Result<Figures> {
    let uploads = files.len();
    let queue = std::sync::Arc::new(std::sync::Mutex::new(files));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let poller = polling::poll(poll, user, password, done.clone());
    let started = Instant::now();
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (root, user, password, queue) = (
            root.to_owned(),
            user.to_owned(),
            password.to_owned(),
            queue.clone(),
        );
        handles.push(tokio::spawn(async move {
            let client = Client::new();
            let mut took = Vec::new();
            loop {
                let Some(file) = queue
                    .lock()
                    .map_err(|_| anyhow::anyhow!("queue lock"))?
                    .pop()
                else {
                    break;
                };
                let begun = Instant::now();
                let response = client
                    .post(format!("{root}/AnswerUploads"))
                    .basic_auth(&user, Some(&password))
                    .header("Content-Type", "application/json")
                    .body(file)
                    .send()
                    .await?;
                let status = response.status();
                if status.as_u16() != 201 {
                    bail!("upload: {status} {}", response.text().await?);
                }
                took.push(begun.elapsed());
            }
            anyhow::Ok(took)
        }));
    }
    let mut took = Vec::new();
    for handle in handles {
        took.extend(handle.await??);
    }
    let seconds = started.elapsed().as_secs_f64();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let polls = poller.await??;
    took.sort();
    Ok(Figures {
        uploads,
        seconds,
        p50_ms: polling::percentile(&took, 0.50),
        p99_ms: polling::percentile(&took, 0.99),
        polls: polls.len(),
        poll_p99_ms: polling::percentile(&polls, 0.99),
    })
}
