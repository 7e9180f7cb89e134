//! Issue 12: a marker's run of 20 tasks in the real window, keyboard only, counting
//! the keys each task takes. The target for a task is its rubric's dimensions + 2:
//! `N` to take it, one digit per dimension, `Ctrl+Enter` to submit. The counts and
//! times go to artifacts/desktop/keystrokes.json; the first and last tasks are
//! photographed.

use std::time::Instant;

use fantoccini::key::Key;

use crate::support::{
    artifacts_dir, ctrl, dimension_maxima, press, shown_task, task_status, wait_for, Api,
    DesktopSession,
};

const TASKS: usize = 20;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_tasks_scored_by_keyboard_take_no_more_keys_than_their_dimensions_and_two() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let mut runs = Vec::new();
    let mut previous: Option<(String, i64)> = None;
    for n in 1..=TASKS {
        let started = Instant::now();
        let mut keys = 0;
        wait_for(client, "#task-list li[data-question]").await;
        press(client, &['n']).await;
        keys += 1;
        let task = shown_task(client).await;
        assert_ne!(Some(&task), previous.as_ref(), "task {n} is a new one");
        let maxima = dimension_maxima(&api, &task).await;
        // Scores that vary: the maximum, then one less where there is room.
        let scores: Vec<i64> = maxima
            .iter()
            .enumerate()
            .map(|(i, max)| {
                if i % 2 == 1 && *max > 0 {
                    max - 1
                } else {
                    *max
                }
            })
            .collect();
        let digits: Vec<char> = scores
            .iter()
            .map(|s| char::from_digit(*s as u32, 10).unwrap())
            .collect();
        press(client, &digits).await;
        keys += digits.len();
        let total: i64 = scores.iter().sum();
        wait_for(client, &format!("#overall-score[data-score='{total}']")).await;
        // Submit, and the dimension scored last, are in the window without scrolling.
        let in_sight = client
            .execute(
                "const submit = document.getElementById('submit-button').getBoundingClientRect(); \
                 const foot = document.querySelector('#scoring-view .footer').getBoundingClientRect(); \
                 const chosen = document.querySelector('.dimension.selected').getBoundingClientRect(); \
                 return submit.top >= 0 && submit.bottom <= window.innerHeight && chosen.top >= 0 && chosen.bottom <= foot.top + 1;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            in_sight.as_bool(),
            Some(true),
            "task {n}: Submit and the selected dimension in sight"
        );
        if n == 1 || n == TASKS {
            session.screenshot(&format!("marking-run-task-{n}")).await;
        }
        ctrl(client, Key::Enter.into()).await;
        keys += 1;
        wait_for(client, "#last-outcome").await;
        assert_eq!(task_status(&api, &task).await, 3, "task {n} submitted");
        assert!(
            keys <= maxima.len() + 2,
            "task {n}: {keys} keys for {} dimensions",
            maxima.len()
        );
        runs.push(serde_json::json!({
            "task": n,
            "questionId": task.0,
            "resultId": task.1,
            "dimensions": maxima.len(),
            "keys": keys,
            "ms": started.elapsed().as_millis() as u64,
        }));
        previous = Some(task);
    }
    session.screenshot("marking-run-queue-after").await;
    std::fs::write(
        artifacts_dir().join("keystrokes.json"),
        serde_json::to_string_pretty(&runs).unwrap(),
    )
    .unwrap();
    session.close().await;
}
