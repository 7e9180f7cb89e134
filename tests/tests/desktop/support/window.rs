//! Acting in the window as a person would: keys, chords, clicks and typing, and
//! waiting for what they change.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};

/// What the tests have done to the window so far: keys pressed as commands (a
/// chord is one), characters typed into fields, and clicks. The keyboard-only
/// runs count their keys with it (tests run one at a time: `--test-threads=1`).
static COMMANDS: AtomicUsize = AtomicUsize::new(0);
static TYPED: AtomicUsize = AtomicUsize::new(0);
static CLICKS: AtomicUsize = AtomicUsize::new(0);

/// The input so far: `[commands, typed characters, clicks]`.
pub fn input_so_far() -> [usize; 3] {
    [&COMMANDS, &TYPED, &CLICKS].map(|count| count.load(Ordering::SeqCst))
}

/// Presses keys one after another, as a person at the keyboard.
pub async fn press(client: &Client, keys: &[char]) {
    COMMANDS.fetch_add(keys.len(), Ordering::SeqCst);
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
    chord(client, Key::Control, key).await;
}

/// Shift + `key` (for keys whose shifted form is not a character of its own).
pub async fn shift(client: &Client, key: char) {
    chord(client, Key::Shift, key).await;
}

/// `modifier` held while `key` is pressed.
async fn chord(client: &Client, modifier: Key, key: char) {
    COMMANDS.fetch_add(1, Ordering::SeqCst);
    let actions = KeyActions::new("keyboard".into())
        .then(KeyAction::Down {
            value: modifier.into(),
        })
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key })
        .then(KeyAction::Up {
            value: modifier.into(),
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

/// Clicks the element `css` selects.
/// The text of the first element matching `css` inside `within` (a table row's cell).
pub async fn text_in(within: &fantoccini::elements::Element, css: &str) -> String {
    within
        .find(fantoccini::Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} inside the element: {e}"))
        .text()
        .await
        .unwrap()
}

pub async fn click(client: &Client, css: &str) {
    CLICKS.fetch_add(1, Ordering::SeqCst);
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap();
}

/// Replaces the text of the field with id `id`.
pub async fn type_into(client: &Client, id: &str, text: &str) {
    let field = wait_for(client, &format!("#{id}")).await;
    field.clear().await.unwrap();
    TYPED.fetch_add(text.chars().count(), Ordering::SeqCst);
    field.send_keys(text).await.unwrap();
}

/// Signs in to another server through the connection form at the first screen's
/// foot (the queue must be on screen, so the link has stopped moving).
pub async fn sign_in_remote(client: &Client, url: &str, customer: i32, user: &str, password: &str) {
    click(client, "section.server button.link").await;
    type_into(client, "remote-url", url).await;
    type_into(client, "remote-customer", &customer.to_string()).await;
    type_into(client, "remote-username", user).await;
    type_into(client, "remote-password", password).await;
    click(client, "section.server form button[type='submit']").await;
}

/// Opens the Markers desk (W) and moves (J) to `question`.
pub async fn markers_desk_on(client: &Client, question: &str) {
    press(client, &['w']).await;
    wait_for(client, "#markers-desk #figures-questions li").await;
    let chosen = format!("#figures-questions li.selected[data-question='{question}']");
    for _ in 0..30 {
        if client.find(fantoccini::Locator::Css(&chosen)).await.is_ok() {
            break;
        }
        press(client, &['j']).await;
    }
    wait_for(client, &chosen).await;
}
