//! Attempts and answer uploads for the fault tests, and the check that each
//! upload is whole or absent: a result with every answer of its snapshot and the
//! file kept, or nothing at all.

use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::support::Sql;

pub const ADMIN: &str = "northwind-admin";
pub const PASSWORD: &str = "scoredesk-demo";

/// What one request answered, and how.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub took: Duration,
    pub retry_after: bool,
    pub body: Value,
}

impl Answer {
    /// A 503 as the contract wants it: `Retry-After` and the OData error body.
    pub fn is_proper_unavailable(&self) -> bool {
        self.status == StatusCode::SERVICE_UNAVAILABLE
            && self.retry_after
            && self.body["odata.error"]["code"] == "ServiceUnavailable"
    }
}

pub struct Delivery {
    root: String,
    snapshot: i64,
    assessment: i64,
    participant: i64,
    client: Client,
}

impl Delivery {
    /// A snapshot of the area's first assessment, made through the server at `base`.
    pub async fn prepare(base: &str, area: i32, sql: &Sql) -> Delivery {
        let assessment = sql
            .scalar(&format!(
                "SELECT MIN(id) FROM assessments WHERE customer_id = {area}"
            ))
            .await;
        let participant = sql
            .scalar(&format!(
                "SELECT CAST(MIN(id) AS BIGINT) FROM participants WHERE customer_id = {area}"
            ))
            .await;
        let client = Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap();
        let root = format!("{base}/deliveryodata/{area}");
        let snapshot: Value = client
            .post(format!("{root}/AssessmentSnapshots"))
            .basic_auth(ADMIN, Some(PASSWORD))
            .json(&json!({"AssessmentID": assessment.to_string()}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        Delivery {
            root,
            snapshot: snapshot["ID"].as_i64().expect("a snapshot"),
            assessment,
            participant,
            client,
        }
    }

    /// The same delivery through another server process (after a restart).
    pub fn through(&self, base: &str, area: i32) -> Delivery {
        Delivery {
            root: format!("{base}/deliveryodata/{area}"),
            client: self.client.clone(),
            ..*self
        }
    }

    async fn send(&self, path: &str, body: Value) -> Answer {
        let begun = Instant::now();
        let response = self
            .client
            .post(format!("{}/{path}", self.root))
            .basic_auth(ADMIN, Some(PASSWORD))
            .json(&body)
            .send()
            .await;
        let took = begun.elapsed();
        match response {
            Ok(response) => Answer {
                status: response.status(),
                took,
                retry_after: response.headers().contains_key("retry-after"),
                body: response.json().await.unwrap_or(Value::Null),
            },
            Err(error) => {
                panic!("no answer after {took:?} (a hang or a dropped connection): {error}")
            }
        }
    }

    /// An upload that may meet a server being killed: false when no answer came.
    pub async fn upload_or_gone(&self, attempt: i64) -> bool {
        self.client
            .post(format!("{}/AnswerUploads", self.root))
            .basic_auth(ADMIN, Some(PASSWORD))
            .json(&json!({"AttemptID": attempt, "QuestionAndChoices": []}))
            .send()
            .await
            .is_ok()
    }

    /// `POST Attempts` for this snapshot; the answer, with the attempt's ID in it.
    pub async fn attempt(&self, external: &str) -> Answer {
        self.send(
            "Attempts",
            json!({
                "ParticipantID": self.participant, "AssessmentID": self.assessment.to_string(),
                "AssessmentSnapshotID": self.snapshot, "ExternalAttemptID": external,
                "LockStatus": false, "LockRequired": false,
            }),
        )
        .await
    }

    /// `POST AnswerUploads` of a file that leaves every question unanswered: each
    /// still writes a result, an answer per question and the file, in one
    /// transaction.
    pub async fn upload(&self, attempt: i64) -> Answer {
        self.send(
            "AnswerUploads",
            json!({"AttemptID": attempt, "QuestionAndChoices": []}),
        )
        .await
    }
}

/// Checks that every attempt of `area` named `<prefix>...` is whole or absent;
/// returns (attempts with a result, attempts without).
pub async fn whole_or_absent(sql: &Sql, area: i32, prefix: &str) -> (Vec<i64>, Vec<i64>) {
    let attempts = sql
        .pairs(&format!(
            "SELECT CAST(id AS BIGINT), CAST(result_id AS BIGINT) FROM attempts \
             WHERE customer_id = {area} AND external_attempt_id LIKE '{prefix}%' ORDER BY id"
        ))
        .await;
    let (mut present, mut absent) = (Vec::new(), Vec::new());
    let mut answers_each = None;
    for (attempt, result) in attempts {
        let kept = sql
            .scalar(&format!(
                "SELECT COUNT(*) FROM answer_uploads WHERE attempt_id = {attempt}"
            ))
            .await;
        let results = sql
            .scalar(&format!(
                "SELECT COUNT(*) FROM results WHERE attempt_id = {attempt}"
            ))
            .await;
        match result {
            Some(result) => {
                let answers = sql
                    .scalar(&format!(
                        "SELECT COUNT(*) FROM answers WHERE result_id = {result}"
                    ))
                    .await;
                assert!(
                    answers > 0,
                    "attempt {attempt}: result {result} without answers"
                );
                assert_eq!(
                    *answers_each.get_or_insert(answers),
                    answers,
                    "attempt {attempt}: a result with some of its answers"
                );
                assert_eq!(
                    (kept, results),
                    (1, 1),
                    "attempt {attempt}: its file and one result"
                );
                present.push(attempt);
            }
            None => {
                assert_eq!(
                    (kept, results),
                    (0, 0),
                    "attempt {attempt} has no result, yet rows of its upload"
                );
                absent.push(attempt);
            }
        }
    }
    (present, absent)
}
