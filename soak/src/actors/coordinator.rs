//! A coordinator delivering on paper: creates an attempt (`POST Attempts`),
//! uploads its answers (`POST AnswerUploads`: ten single choices and a written
//! answer, as typed text or as a scanned PNG or JPEG crop, as `sheets scan` sends
//! them), and reads the attempt back for its ResultID. One upload in 25 is first
//! sent with a broken JPEG (400, nothing stored), one in 25 is sent twice (409).

use std::sync::Arc;

use base64::Engine;
use rand::Rng;
use reqwest::Method;
use serde_json::{json, Value};

use super::Load;
use crate::client::Person;
use crate::ledger::{lock, Ledger, Uploaded};
use crate::setup::{World, CHOICES, CHOICE_MARKS, CHOICE_QUESTIONS, CORRECT_CHOICE};

/// Scanned answers to send: PNG and JPEG crops of a written page.
pub struct Scans {
    pub png: Vec<u8>,
    pub jpeg: Vec<u8>,
}

impl Scans {
    /// A 1,200 × 500 crop of grey paper with pencil strokes, in both formats.
    pub fn make() -> anyhow::Result<Scans> {
        let mut rng = rand::rng();
        let page = image::GrayImage::from_fn(1200, 500, |x, y| {
            let line = (y % 60) < 3 && (x / 40) % 3 != 0;
            let grain: u8 = rng.random_range(0..12);
            image::Luma([if line { 60 + grain } else { 235 - grain }])
        });
        let mut png = Vec::new();
        page.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)?;
        let mut jpeg = Vec::new();
        page.write_to(
            &mut std::io::Cursor::new(&mut jpeg),
            image::ImageFormat::Jpeg,
        )?;
        Ok(Scans { png, jpeg })
    }
}

pub struct Delivery {
    pub world: World,
    pub snapshot: i64,
    pub batch: i64,
    pub scans: Scans,
}

pub async fn run(load: Arc<Load>, me: Person, delivery: Arc<Delivery>, n: usize) {
    let mut count = 0usize;
    while !load.stopping() {
        count += 1;
        deliver_one(&load, &me, &delivery, &format!("soak-{n}-{count}"), count).await;
        load.pause(1_000, 3_000).await;
    }
}

async fn deliver_one(load: &Load, me: &Person, delivery: &Delivery, external: &str, count: usize) {
    let world = &delivery.world;
    let participant = world.participants[count % world.participants.len()];
    let attempt = me
        .json(
            "coordinator: attempt",
            Method::POST,
            "Attempts",
            &json!({
                "ParticipantID": participant, "AssessmentID": world.upload_assessment.to_string(),
                "AssessmentSnapshotID": delivery.snapshot, "ExternalAttemptID": external,
                "LockStatus": false, "LockRequired": false,
            }),
            &[201],
        )
        .await;
    let Some(attempt) = attempt.json()["ID"].as_i64() else {
        return;
    };
    let (file, expected_total) = answers(attempt, delivery, count);
    if rand::rng().random_ratio(1, 25) {
        let broken = broken_copy(&file, &delivery.scans.jpeg);
        me.send(
            "coordinator: broken upload",
            Method::POST,
            "AnswerUploads",
            Some(("application/json", broken)),
            &[400],
        )
        .await;
        Ledger::add(&load.ledger.refused_uploads);
    }
    let bytes = serde_json::to_vec(&file).unwrap_or_default();
    let upload = me
        .send(
            "coordinator: upload",
            Method::POST,
            "AnswerUploads",
            Some(("application/json", bytes.clone())),
            &[201],
        )
        .await;
    if !upload.is(201) {
        return;
    }
    if rand::rng().random_ratio(1, 25) {
        me.send(
            "coordinator: second upload",
            Method::POST,
            "AnswerUploads",
            Some(("application/json", bytes)),
            &[409],
        )
        .await;
        Ledger::add(&load.ledger.second_uploads);
    }
    let read = me
        .get(
            "coordinator: read attempt",
            &format!("Attempts({attempt})"),
            &[200],
        )
        .await
        .json();
    match read["ResultID"].as_i64() {
        Some(result) => {
            lock(&load.ledger.uploads).insert(
                attempt,
                Uploaded {
                    result,
                    expected_total,
                },
            );
        }
        None => me.recorder().fail(format!(
            "attempt {attempt} has no ResultID after its upload: {read}"
        )),
    }
}

/// The upload file of `attempt`, and the total its choices earn by the key.
fn answers(attempt: i64, delivery: &Delivery, count: usize) -> (Value, i64) {
    let mut rng = rand::rng();
    let mut total = 0;
    let mut questions: Vec<Value> = (1..=CHOICE_QUESTIONS)
        .map(|number| {
            let choice = rng.random_range(1..=CHOICES);
            if choice == CORRECT_CHOICE {
                total += i64::from(CHOICE_MARKS);
            }
            json!({"QuestionOrderNumber": number, "UploadedChoices": [{"ChoiceOrderNumber": choice.to_string(), "Selected": true}]})
        })
        .collect();
    let written = CHOICE_QUESTIONS + 1;
    let engine = &base64::engine::general_purpose::STANDARD;
    questions.push(match count % 3 {
        0 => json!({"QuestionOrderNumber": written, "ImageResponse": {"MediaType": "image/png", "Data": engine.encode(&delivery.scans.png)}}),
        1 => json!({"QuestionOrderNumber": written, "ImageResponse": {"MediaType": "image/jpeg", "Data": engine.encode(&delivery.scans.jpeg)}}),
        _ => json!({"QuestionOrderNumber": written, "TextResponse": format!("Answer {count}: the forces balance, so the beam stays where it is.")}),
    });
    (
        json!({"AttemptID": attempt, "BatchID": delivery.batch.to_string(), "QuestionAndChoices": questions}),
        total,
    )
}

/// `file` with its written answer replaced by a JPEG cut off half way.
fn broken_copy(file: &Value, jpeg: &[u8]) -> Vec<u8> {
    let mut broken = file.clone();
    let half = &jpeg[..jpeg.len() / 2];
    let data = base64::engine::general_purpose::STANDARD.encode(half);
    if let Some(last) = broken["QuestionAndChoices"]
        .as_array_mut()
        .and_then(|q| q.last_mut())
    {
        *last = json!({"QuestionOrderNumber": CHOICE_QUESTIONS + 1, "ImageResponse": {"MediaType": "image/jpeg", "Data": data}});
    }
    serde_json::to_vec(&broken).unwrap_or_default()
}
