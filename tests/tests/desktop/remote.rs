//! Issue 5 in the real window: a remote server chosen in the app is remembered (its
//! password in the platform keyring, or in a file only the user can read), and a lost
//! connection shows a banner, retries, and loses nothing the scorer typed.

use std::path::Path;
use std::time::Duration;

use fantoccini::Locator;
use secrecy::SecretString;
use tokio::sync::oneshot;

use scoredesk_server::config::{sqlite_url, Settings};
use scoredesk_server::seed::demo::{seed_demo, DemoLogins, DEMO_ACCOUNTS};
use scoredesk_server::App;

use crate::support::{
    bring_to_head, click, ctrl, dimension_maxima, score_all_by_keyboard, take_with_keyboard,
    task_status, type_into, wait_for, Api, DesktopSession,
};

const PASSWORD: &str = "scoredesk-demo";

/// Another ScoreDesk server on this machine, with the demo, on a fixed port so that
/// it can be stopped and started again where the app expects it.
pub(crate) struct RemoteServer {
    database: std::path::PathBuf,
    port: u16,
    pub(crate) customer_id: i32,
    running: Option<(oneshot::Sender<()>, tokio::task::JoinHandle<()>)>,
}

impl RemoteServer {
    pub(crate) async fn start(dir: &Path) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut server = Self {
            database: dir.join("remote.db"),
            port,
            customer_id: 0,
            running: None,
        };
        server.resume().await;
        server
    }

    /// Serves (again) on the same port and database.
    pub(crate) async fn resume(&mut self) {
        let settings = Settings {
            database_url: SecretString::from(sqlite_url(&self.database)),
            ..Settings::default()
        };
        let app = App::build(settings).await.unwrap();
        seed_demo(app.store(), DemoLogins::Published).await.unwrap();
        let admin = app
            .store()
            .find_account(DEMO_ACCOUNTS[0].username)
            .await
            .unwrap()
            .unwrap();
        self.customer_id = admin.customer_id.unwrap();
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", self.port))
            .await
            .unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let serving = tokio::spawn(async move {
            app.serve(listener, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
        self.running = Some((stop, serving));
    }

    /// Stops answering, as a server that went down.
    pub(crate) async fn stop(&mut self) {
        let (stop, serving) = self.running.take().expect("running");
        let _ = stop.send(());
        // Open keep-alive connections end with the graceful shutdown; do not wait
        // for ever on one that does not.
        let _ = tokio::time::timeout(Duration::from_secs(10), serving).await;
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

/// Whether the test runs with a real Secret Service (scripts/test starts GNOME
/// Keyring on a private session bus and says so).
fn keyring_expected() -> bool {
    std::env::var_os("SCOREDESK_TEST_KEYRING").is_some()
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_server_is_remembered_and_a_lost_connection_loses_nothing() {
    let remote_dir = tempfile::tempdir().unwrap();
    let mut remote = RemoteServer::start(remote_dir.path()).await;
    let api = Api::at(&remote.url(), remote.customer_id);

    // The scorer connects to it from the first screen.
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#connection-state[data-state='connected']").await;
    // The queue first: its rows and counts arriving move the link down the page, and a
    // click aimed before they land misses it.
    wait_for(client, "#task-list li[data-question]").await;
    click(client, "section.server button.link").await;
    type_into(client, "remote-url", &remote.url()).await;
    type_into(client, "remote-customer", &remote.customer_id.to_string()).await;
    type_into(client, "remote-username", DEMO_ACCOUNTS[0].username).await;
    type_into(client, "remote-password", PASSWORD).await;
    click(client, "section.server form button[type='submit']").await;
    wait_for(client, "#password-store").await;
    let detail = wait_for(client, "#connection-detail")
        .await
        .text()
        .await
        .unwrap();
    assert!(detail.contains(&remote.url()), "{detail}");
    let store = wait_for(client, "#password-store")
        .await
        .text()
        .await
        .unwrap();
    session.screenshot("remote-connected").await;

    // Where the password went: never into a file in plain text beside the settings,
    // unless there is no keyring, and then into a file only the user can read.
    let saved = std::fs::read_to_string(session.data_dir.join("connection.json")).unwrap();
    assert!(
        saved.contains(&remote.url()) && !saved.contains(PASSWORD),
        "{saved}"
    );
    let holding_it: Vec<_> = files_under(&session.data_dir)
        .into_iter()
        .filter(|f| {
            std::fs::read(f)
                .is_ok_and(|b| b.windows(PASSWORD.len()).any(|w| w == PASSWORD.as_bytes()))
        })
        .collect();
    if store.contains("system keyring") {
        assert!(
            holding_it.is_empty(),
            "no file holds the password: {holding_it:?}"
        );
    } else {
        use std::os::unix::fs::PermissionsExt;
        assert!(!keyring_expected(), "a keyring is running, yet: {store}");
        assert!(store.contains("only you can read"), "{store}");
        let file = session.data_dir.join("remote-password");
        assert_eq!(holding_it, vec![file.clone()]);
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    // The next start goes straight to the remembered server, with no form.
    let data = session.close().await;
    let session = DesktopSession::start_in(data).await;
    let client = &session.client;
    wait_for(client, "#connection-state[data-state='connected']").await;
    let detail = wait_for(client, "#connection-detail")
        .await
        .text()
        .await
        .unwrap();
    assert!(detail.contains(&remote.url()), "remembered: {detail}");

    // A task is scored; the server goes down before the save.
    let task = bring_to_head(&api, "text/").await;
    take_with_keyboard(client, &task).await;
    let maxima = dimension_maxima(&api, &task).await;
    score_all_by_keyboard(client, &maxima).await;
    remote.stop().await;
    ctrl(client, 's').await;
    wait_for(client, "#connection-lost").await;
    let message = wait_for(client, "#scoring-message")
        .await
        .text()
        .await
        .unwrap();
    assert!(message.contains("Not saved yet"), "{message}");
    session.screenshot("connection-lost").await;

    // It comes back: the save goes through by itself, with what the scorer typed.
    remote.resume().await;
    wait_for(client, "#last-outcome").await;
    assert!(client.find(Locator::Id("connection-lost")).await.is_err());
    assert_eq!(task_status(&api, &task).await, 2, "saved for moderation");
    let (question, result) = &task;
    let stored = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await;
    assert_eq!(stored["value"][0]["Score"], maxima.iter().sum::<i64>());

    // Back to the built-in server: the remote one and its password are forgotten.
    click(client, "#use-embedded").await;
    wait_for(client, "#connection-detail").await;
    for _ in 0..50 {
        if !session.data_dir.join("connection.json").exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!session.data_dir.join("connection.json").exists());
    assert!(!session.data_dir.join("remote-password").exists());
    session.close().await;
    remote.stop().await;
}

/// Issue 10: a real scorer account (not an administrator) on a remote server opens a
/// task with a rubric, scores it by keyboard and submits it; the scores arrive whole.
/// On the way, the form warns before a password would go out over plain http.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scorer_on_a_remote_server_opens_a_task_with_a_rubric_and_submits_it() {
    let remote_dir = tempfile::tempdir().unwrap();
    let mut remote = RemoteServer::start(remote_dir.path()).await;
    let admin = Api::at(&remote.url(), remote.customer_id);
    let scorer = DEMO_ACCOUNTS
        .iter()
        .find(|a| a.role == scoredesk_server::auth::Role::Scorer && a.area == 0)
        .unwrap();

    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#connection-state[data-state='connected']").await;
    // The queue first: its rows and counts arriving move the link down the page, and a
    // click aimed before they land misses it.
    wait_for(client, "#task-list li[data-question]").await;
    click(client, "section.server button.link").await;
    // Plain http to another machine: the warning and its box, before anything is sent.
    type_into(client, "remote-url", "http://scoring.example.org").await;
    let warning = wait_for(client, "#cleartext-warning")
        .await
        .text()
        .await
        .unwrap();
    assert!(warning.contains("unencrypted"), "{warning}");
    session.screenshot("remote-cleartext-warning").await;
    // This machine's loopback address needs no warning.
    type_into(client, "remote-url", &remote.url()).await;
    assert!(client.find(Locator::Id("cleartext-warning")).await.is_err());
    type_into(client, "remote-customer", &remote.customer_id.to_string()).await;
    type_into(client, "remote-username", scorer.username).await;
    type_into(client, "remote-password", PASSWORD).await;
    click(client, "section.server form button[type='submit']").await;
    wait_for(client, "#password-store").await;
    let detail = wait_for(client, "#connection-detail")
        .await
        .text()
        .await
        .unwrap();
    assert!(detail.contains(scorer.username), "{detail}");
    // Issue 16: a scorer has no delivery desk (the server refuses the feeds; the
    // app asks and hides the tab), and D does nothing.
    for _ in 0..100 {
        if client.find(Locator::Id("tab-delivery")).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(client.find(Locator::Id("tab-delivery")).await.is_err());
    crate::support::press(client, &['d']).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(client.find(Locator::Id("delivery-title")).await.is_err());
    assert_eq!(
        admin
            .signed_in_as(scorer.username, PASSWORD)
            .status("AssessmentSnapshots")
            .await,
        403
    );

    let task = bring_to_head(&admin, "text/").await;
    take_with_keyboard(client, &task).await;
    // The rubric is on screen: the scorer read Questions(…)/Rubric(…) and its
    // dimensions, which the access decision must allow a scorer.
    wait_for(client, "#scoring-view #dimension-1").await;
    let maxima = dimension_maxima(&admin, &task).await;
    score_all_by_keyboard(client, &maxima).await;
    session.screenshot("remote-scorer-scoring").await;
    ctrl(client, fantoccini::key::Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;

    assert_eq!(task_status(&admin, &task).await, 3, "submitted");
    let (question, result) = &task;
    let stored = admin
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await;
    let total: i64 = maxima.iter().sum();
    assert_eq!(stored["value"][0]["Score"], total);
    let rubric = stored["value"][0]["RubricID"].as_i64().unwrap();
    let dimensions = admin
        .get(&format!(
            "ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})/DimensionScores"
        ))
        .await;
    let stored_dimensions: Vec<i64> = dimensions["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Score"].as_i64().unwrap())
        .collect();
    assert_eq!(stored_dimensions, maxima, "every dimension as typed");
    let answer = admin
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/Answer"
        ))
        .await;
    assert_eq!(
        answer["ActualScore"], total,
        "the participant's result has the score"
    );
    session.close().await;
    remote.stop().await;
}
