//! The app's sign-in just after a spray of wrong passwords from its own address
//! (a school's markers share one; docs/operations.md, "Sign-ins"): the server's
//! line for that address is full and refuses new sign-ins with 429 and
//! `Retry-After`. The app waits as told, once, and is served, rather
//! than showing the marker an error (issue 31, found by the soak). The limits are
//! the server's own, in memory: one database is enough.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use scoredesk_desktop::client::ODataClient;
use scoredesk_e2e::{Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use secrecy::SecretString;

/// Guessers at once, as in the soak's flood.
const GUESSERS: usize = 16;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_sign_in_just_after_a_spray_from_its_address_waits_and_is_served() {
    let app = TestApp::spawn_with_demo(Backend::Sqlite).await;
    let url = app.url(&format!("{}ScoringTasks?$top=1", app.root()));
    let stop = Arc::new(AtomicBool::new(false));
    let guessers: Vec<_> = (0..GUESSERS)
        .map(|n| {
            let (client, url, stop) = (app.client.clone(), url.clone(), stop.clone());
            tokio::spawn(async move {
                let mut guess = 0;
                while !stop.load(Ordering::Relaxed) {
                    guess += 1;
                    let _ = client
                        .get(&url)
                        // Made-up names: each fails once, so no account's own
                        // limit stops them before the address's does.
                        .basic_auth(format!("nobody-{n}-{guess}"), Some("guess"))
                        .send()
                        .await;
                }
            })
        })
        .collect();
    // Past the address's 50 failures: its checks go one at a time, its line full.
    tokio::time::sleep(Duration::from_secs(5)).await;

    // While the spray goes on, its guesses fill the line: a sign-in that does not
    // wait is refused. (Asked after the spray stopped, this raced the line's
    // draining and was sometimes served.)
    let refused = app
        .client
        .get(&url)
        .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 429, "the address's line is full");
    assert!(refused.headers().contains_key("Retry-After"));

    // The app signs in while the line is still full, and the spray stops just
    // after: told to come back, it waits as told and is served.
    let scorer = ODataClient::new(
        &app.address,
        app.northwind(),
        "northwind-scorer",
        SecretString::from(DEMO_PASSWORD),
    );
    let begun = Instant::now();
    let signing_in =
        tokio::spawn(async move { scorer.count("ScoringTasks/$count", "Status eq 0").await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::Relaxed);
    let count = signing_in.await.unwrap();
    assert!(
        count.is_ok(),
        "the app waits as told and is served: {:?}",
        count.err()
    );
    assert!(
        begun.elapsed() < Duration::from_secs(12),
        "{:?}",
        begun.elapsed()
    );
    for guesser in guessers {
        guesser.await.unwrap();
    }
}
