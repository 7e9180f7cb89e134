//! Issue 5, end to end in the real window: the queue, taking a task, the markup and
//! a text answer, then a scanned answer; every dimension scored and the task
//! submitted with the keyboard alone; the participant's Result checked through the
//! API of the app's own embedded server.

use std::time::Duration;

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::driver::DesktopSession;

/// A second client of a server the app uses.
pub struct Api {
    http: reqwest::Client,
    root: String,
    username: String,
    password: String,
}

/// The account the tests add to the app's own database to reach its server: the
/// demo accounts there take no password anyone knows.
const SECOND_CLIENT: (&str, &str) = ("window-test-client", "a password of the test's own");

impl Api {
    /// A server's service root for a customer area, such as a remote one seeded with
    /// the published demo logins.
    pub fn at(base_url: &str, customer_id: i32) -> Self {
        Self {
            http: reqwest::Client::new(),
            root: format!("{base_url}/deliveryodata/{customer_id}/"),
            username: "northwind-admin".into(),
            password: "scoredesk-demo".into(),
        }
    }

    /// The app's embedded server, with an administrator account the test adds to the
    /// app's database, as an operator would with `scoredesk-server account add`.
    pub async fn of(session: &DesktopSession) -> Self {
        let text = std::fs::read_to_string(session.data_dir.join("embedded-server.json"))
            .expect("the app writes where its server listens");
        let server: Value = serde_json::from_str(&text).unwrap();
        let customer_id = server["customerId"].as_i64().unwrap() as i32;
        add_second_client(&session.data_dir, customer_id).await;
        Self {
            http: reqwest::Client::new(),
            root: format!(
                "{}/deliveryodata/{customer_id}/",
                server["baseUrl"].as_str().unwrap(),
            ),
            username: SECOND_CLIENT.0.into(),
            password: SECOND_CLIENT.1.into(),
        }
    }

    /// The same server and area as another account.
    pub fn signed_in_as(&self, username: &str, password: &str) -> Self {
        Self {
            http: self.http.clone(),
            root: self.root.clone(),
            username: username.into(),
            password: password.into(),
        }
    }

    /// The status of a GET, whatever it is.
    pub async fn status(&self, path: &str) -> reqwest::StatusCode {
        self.http
            .get(format!("{}{path}", self.root))
            .basic_auth(&self.username, Some(&self.password))
            .send()
            .await
            .unwrap()
            .status()
    }

    pub async fn get(&self, path: &str) -> Value {
        let response = self
            .http
            .get(format!("{}{path}", self.root))
            .basic_auth(&self.username, Some(&self.password))
            .send()
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "GET {path}: {}",
            response.status()
        );
        response.json().await.unwrap()
    }

    /// `ScoringTasks/$count` with `filter`.
    pub async fn count(&self, filter: &str) -> i64 {
        let response = self
            .http
            .get(format!("{}ScoringTasks/$count", self.root))
            .query(&[("$filter", filter)])
            .basic_auth(&self.username, Some(&self.password))
            .send()
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "$count of {filter}: {}",
            response.status()
        );
        response.text().await.unwrap().trim().parse().unwrap()
    }

    pub async fn put(&self, path: &str, body: Value) -> reqwest::StatusCode {
        self.http
            .put(format!("{}{path}", self.root))
            .basic_auth(&self.username, Some(&self.password))
            .json(&body)
            .send()
            .await
            .unwrap()
            .status()
    }
}

/// Adds [`SECOND_CLIENT`] to the app's database (once).
async fn add_second_client(data_dir: &std::path::Path, customer_id: i32) {
    let url = format!("sqlite:{}", data_dir.join("scoredesk.db").display());
    let store = scoredesk_server::store::Store::connect(&url)
        .await
        .expect("the app's database opens");
    if store.find_account(SECOND_CLIENT.0).await.unwrap().is_none() {
        let hash = scoredesk_server::auth::hash_password(SECOND_CLIENT.1).unwrap();
        store
            .insert_account(scoredesk_server::store::NewAccount {
                customer_id: Some(customer_id),
                username: SECOND_CLIENT.0,
                password_hash: &hash,
                role: "admin",
            })
            .await
            .expect("the second client's account is added");
    }
    store.close().await;
}

/// Presses keys one after another, as a person at the keyboard.
pub async fn press(client: &Client, keys: &[char]) {
    let mut actions = KeyActions::new("keyboard".into());
    for key in keys {
        actions = actions
            .then(KeyAction::Down { value: *key })
            .then(KeyAction::Up { value: *key });
    }
    client.perform_actions(actions).await.expect("keys pressed");
}

/// Ctrl + `key`.
pub async fn ctrl(client: &Client, key: char) {
    let actions = KeyActions::new("keyboard".into())
        .then(KeyAction::Down {
            value: Key::Control.into(),
        })
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key })
        .then(KeyAction::Up {
            value: Key::Control.into(),
        });
    client
        .perform_actions(actions)
        .await
        .expect("chord pressed");
}

pub async fn wait_for(client: &Client, css: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} did not appear: {e}"))
}

/// The queue's open tasks, newest result first, with what decides the test's choice.
pub async fn queue(api: &Api) -> Vec<Value> {
    let body = api
        .get("ScoringTasks?$filter=Status%20eq%200&$orderby=Result/WhenFinished%20desc&$top=100&$expand=Answer,Question/Rubric")
        .await;
    body["value"].as_array().unwrap().clone()
}

/// Brings the first open task whose answer is of `media` (and whose question has a
/// rubric) to the head of the queue, by saving the ones before it for moderation
/// (Status 2) through the API, as another scorer would. Returns its key.
pub async fn bring_to_head(api: &Api, media: &str) -> (String, i64) {
    let tasks = queue(api).await;
    let index = tasks
        .iter()
        .position(|t| {
            t["Answer"]["odata.mediaContentType"]
                .as_str()
                .is_some_and(|m| m.starts_with(media))
                && t["Question"]["Rubric"]
                    .as_array()
                    .is_some_and(|r| !r.is_empty())
        })
        .unwrap_or_else(|| panic!("no open task with a rubric and a {media} answer"));
    for task in &tasks[..index] {
        let path = format!(
            "ScoringTasks(QuestionID={}L,ResultID={})",
            task["QuestionID"].as_str().unwrap(),
            task["ResultID"]
        );
        assert!(api
            .put(&path, serde_json::json!({"Status": 2}))
            .await
            .is_success());
    }
    let head = &tasks[index];
    (
        head["QuestionID"].as_str().unwrap().to_owned(),
        head["ResultID"].as_i64().unwrap(),
    )
}

/// Refreshes the queue with R and waits until `task` heads it, then takes it with N.
pub async fn take_with_keyboard(client: &Client, (question, result): &(String, i64)) {
    press(client, &['r']).await;
    wait_for(
        client,
        &format!("#task-list li:first-child[data-question='{question}'][data-result='{result}']"),
    )
    .await;
    press(client, &['n']).await;
    wait_for(
        client,
        &format!("#scoring-view[data-question='{question}'][data-result='{result}']"),
    )
    .await;
}

/// The maxima of the task's dimensions, in order, from the API.
pub async fn dimension_maxima(api: &Api, (question, result): &(String, i64)) -> Vec<i64> {
    let scoring = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await;
    let rubric = scoring["value"][0]["RubricID"].as_i64().unwrap();
    let scores = api
        .get(&format!(
            "ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})/DimensionScores?$expand=Dimension"
        ))
        .await;
    scores["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Dimension"]["MaxScore"].as_i64().unwrap())
        .collect()
}

/// Scores every dimension with number keys (the selection moves on by itself).
pub async fn score_all_by_keyboard(client: &Client, scores: &[i64]) {
    let keys: Vec<char> = scores
        .iter()
        .map(|s| char::from_digit(*s as u32, 10).expect("one-digit maxima"))
        .collect();
    press(client, &keys).await;
    let total: i64 = scores.iter().sum();
    wait_for(client, &format!("#overall-score[data-score='{total}']")).await;
}

pub async fn total_score(api: &Api, result: i64) -> i64 {
    api.get(&format!("Results({result})")).await["TotalScore"]
        .as_i64()
        .unwrap()
}

pub async fn task_status(api: &Api, (question, result): &(String, i64)) -> i64 {
    api.get(&format!(
        "ScoringTasks(QuestionID={question}L,ResultID={result})"
    ))
    .await["Status"]
        .as_i64()
        .unwrap()
}

/// A scorer in the middle of scoring a typed answer: taken with `N`, every
/// dimension scored one below its maximum, nothing saved yet. Returns the API of the
/// app's server, the task, and the scores typed.
pub async fn scoring_mid_edit(session: &DesktopSession) -> (Api, (String, i64), Vec<i64>) {
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(session).await;
    let task = bring_to_head(&api, "text/").await;
    take_with_keyboard(client, &task).await;
    let maxima = dimension_maxima(&api, &task).await;
    let mine: Vec<i64> = maxima.iter().map(|m| m - 1).collect();
    score_all_by_keyboard(client, &mine).await;
    (api, task, mine)
}

/// Another client saves the task's ScoringResult (with the ModifiedDateTime it reads)
/// while the app has it open; returns the ScoringResult's path.
pub async fn another_client_saves(
    api: &Api,
    (question, result): &(String, i64),
    score: i64,
    comments: &str,
) -> String {
    let scoring_result = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await["value"][0]
        .clone();
    let path = format!(
        "ScoringResults(QuestionID={question}L,RubricID={},ResultID={result})",
        scoring_result["RubricID"]
    );
    let status = api
        .put(
            &path,
            serde_json::json!({
                "Score": score,
                "Comments": comments,
                "ModifiedDateTime": scoring_result["ModifiedDateTime"],
            }),
        )
        .await;
    assert!(status.is_success(), "{status}");
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scorer_takes_scores_and_submits_tasks_with_the_keyboard_alone() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#group-counts tbody tr").await;
    let api = Api::of(&session).await;
    session.screenshot("queue").await;

    // The group counts are the spec's: Unscored (0 or 1) and Saved (2) per group.
    let first_group = wait_for(client, "#group-counts tbody tr").await;
    let group = first_group.attr("data-group").await.unwrap().unwrap();
    for (column, status) in [
        ("unscored", "(Status eq 0 or Status eq 1)"),
        ("saved", "Status eq 2"),
    ] {
        let shown: i64 = first_group
            .find(Locator::Css(&format!(".{column}")))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
            .parse()
            .unwrap();
        let counted = api
            .count(&format!("Group/Name eq '{group}' and {status}"))
            .await;
        assert_eq!(shown, counted, "{column} of {group}");
    }

    // A typed answer: markup and text shown, scored and submitted by keyboard.
    let text_task = bring_to_head(&api, "text/").await;
    let before = total_score(&api, text_task.1).await;
    take_with_keyboard(client, &text_task).await;
    let markup = wait_for(client, "#question-markup")
        .await
        .text()
        .await
        .unwrap();
    assert!(markup.len() > 20, "the question is shown: {markup}");
    let answer = wait_for(client, "#answer-text").await.text().await.unwrap();
    assert!(!answer.trim().is_empty(), "the typed answer is shown");
    assert_eq!(
        task_status(&api, &text_task).await,
        1,
        "taking the task locks it"
    );
    let maxima = dimension_maxima(&api, &text_task).await;
    score_all_by_keyboard(client, &maxima).await;
    session.screenshot("scoring-text-answer").await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;
    let scored: i64 = maxima.iter().sum();
    assert_eq!(task_status(&api, &text_task).await, 3);
    assert_eq!(
        total_score(&api, text_task.1).await,
        before + scored,
        "the participant's Result gained the score"
    );

    // A scanned answer: the image is shown, zoomed and rotated by keyboard, scored.
    let image_task = bring_to_head(&api, "image/").await;
    take_with_keyboard(client, &image_task).await;
    let image = wait_for(client, "#answer-image").await;
    let loaded = client
        .execute(
            "return arguments[0].complete && arguments[0].naturalWidth > 0",
            vec![serde_json::to_value(&image).unwrap()],
        )
        .await
        .unwrap();
    assert_eq!(loaded, Value::Bool(true), "the scan is decoded and shown");
    // WebKit decodes large images off the main thread: let it paint before the picture.
    client
        .execute_async(
            "const [image, done] = arguments; image.decode().then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))), () => done(false));",
            vec![serde_json::to_value(&image).unwrap()],
        )
        .await
        .unwrap();
    session.screenshot("scoring-image-answer").await;
    press(client, &['+', 'o']).await;
    wait_for(client, "#image-zoom").await;
    let zoom = client
        .find(Locator::Id("image-zoom"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(zoom.starts_with("125%"), "{zoom}");
    let maxima = dimension_maxima(&api, &image_task).await;
    score_all_by_keyboard(client, &maxima).await;
    ctrl(client, 's').await;
    wait_for(client, "#last-outcome").await;
    assert_eq!(
        task_status(&api, &image_task).await,
        2,
        "saved for moderation"
    );
    session.screenshot("queue-after-scoring").await;
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conflicting_save_by_another_client_shows_the_conflict_view_and_loses_nothing() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    let (api, task, mine) = scoring_mid_edit(&session).await;

    // Meanwhile a moderator saves the same ScoringResult through the API.
    let path = another_client_saves(&api, &task, 1, "Moderator: see me").await;

    // The scorer submits: the app shows both versions instead of overwriting either.
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#conflict-view").await;
    let comments_row = wait_for(client, "#conflict-view tr[data-field='comments'] td.stored")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(comments_row, "Moderator: see me");
    session.screenshot("conflict").await;
    assert_eq!(
        task_status(&api, &task).await,
        1,
        "nothing was submitted yet"
    );

    // Enter keeps the scorer's version, re-applied on top of the stored revision.
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#last-outcome").await;
    let stored = api.get(&path).await;
    assert_eq!(stored["Score"], mine.iter().sum::<i64>());
    let dimensions = api.get(&format!("{path}/DimensionScores")).await;
    let scores: Vec<i64> = dimensions["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, mine, "the scorer's dimension scores are kept");
    assert_eq!(task_status(&api, &task).await, 3);
    session.close().await;
}
