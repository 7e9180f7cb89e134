//! How the app looks, by the scorer's choice: the text size follows Ctrl+plus,
//! Ctrl+minus and Ctrl+0 and is remembered across restarts; the colours follow the
//! system's light or dark theme.

use std::time::Duration;

use fantoccini::Client;
use serde_json::Value;

use crate::support::{ctrl, wait_for, DesktopSession};

async fn evaluate(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap()
}

/// The window's width in CSS pixels, once it is about `expected` (the zoom applies
/// asynchronously).
async fn inner_width_near(client: &Client, expected: f64) -> f64 {
    let mut width = 0.0;
    for _ in 0..50 {
        width = evaluate(client, "return window.innerWidth")
            .await
            .as_f64()
            .unwrap();
        if (width - expected).abs() <= 2.0 {
            return width;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the window is {width} CSS pixels wide, not about {expected}");
}

/// The page's colour variable `name`, as computed.
async fn colour(client: &Client, name: &str) -> String {
    let script = format!(
        "return getComputedStyle(document.documentElement).getPropertyValue('{name}').trim()"
    );
    evaluate(client, &script).await.as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_text_size_is_remembered_and_the_colours_follow_the_system_theme() {
    // The system asks for dark: the app is dark.
    let data = tempfile::tempdir().unwrap();
    let session = DesktopSession::start_with(data, &[("GTK_THEME", "Adwaita:dark")]).await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let dark = evaluate(
        client,
        "return matchMedia('(prefers-color-scheme: dark)').matches",
    )
    .await;
    assert_eq!(
        dark,
        Value::Bool(true),
        "the system's dark theme reaches the page"
    );
    assert_eq!(colour(client, "--page").await, "#14171d");
    session.screenshot("dark-theme").await;

    // Ctrl+plus twice: 110 %, then 125 %.
    let normal = evaluate(client, "return window.innerWidth")
        .await
        .as_f64()
        .unwrap();
    ctrl(client, '=').await;
    ctrl(client, '=').await;
    inner_width_near(client, normal / 1.25).await;
    session.screenshot("text-size-125").await;

    // Restarted, with the system's light theme: the size is as the scorer left it.
    let data = session.close().await;
    let session = DesktopSession::start_in(data).await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    assert_eq!(colour(client, "--page").await, "#f4f6fa");
    inner_width_near(client, normal / 1.25).await;
    ctrl(client, '-').await;
    inner_width_near(client, normal / 1.1).await;
    ctrl(client, '0').await;
    inner_width_near(client, normal).await;
    session.close().await;
}
