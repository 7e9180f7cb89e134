//! People signing in for the first time from somewhere new, every 20 s: a
//! scorer whose account the flood is guessing, from an address never seen (they
//! may be delayed, never refused), and every minute a scorer the flood is not
//! guessing, from the flood's own address: served when the flood has stopped
//! (within seconds of its end, after waiting as `Retry-After` says).

use std::sync::Arc;
use std::time::Duration;

use super::{Load, FLOOD_ADDRESS};
use crate::client::Person;
use crate::setup::{scorer, PASSWORD};

pub async fn run(load: Arc<Load>, template: Person) {
    let mut n = 0u32;
    while !load.stopping() {
        n += 1;
        let address = format!("192.0.2.{}", n % 250 + 1);
        let target = scorer(super::flood::TARGETS.start + n as usize % 5);
        fresh(&template, &target, &address)
            .get(
                "newcomer: first sign-in (guessed account)",
                "ScoringTasks?$top=1",
                &[200],
            )
            .await;
        if n.is_multiple_of(3) {
            let person = fresh(&template, &scorer(30 + n as usize % 10), FLOOD_ADDRESS);
            if load.flooding() {
                // During the flood the address's sign-ins are spaced out to its
                // limit and may be refused: counted apart, not a failure.
                person
                    .get(
                        "newcomer: first sign-in (flood's address, during)",
                        "ScoringTasks?$top=1",
                        &[200, 429],
                    )
                    .await;
            } else {
                after_flood(&load, &person).await;
            }
        }
        load.pause(20_000, 20_000).await;
    }
}

/// A first sign-in at the flood's address once the flood has stopped: served.
/// In the first seconds after it, the guesses already waiting in the address's
/// line (four, one check per 1.2 s) are still being answered, and a sign-in that
/// finds the line full gets 429 with `Retry-After` (docs/operations.md: "served
/// within seconds once the spray stops"). There, and only there, the person waits
/// as told, once, and must then be served; a 429 later than that is a failure.
async fn after_flood(load: &Load, person: &Person) {
    const DRAINING: Duration = Duration::from_secs(10);
    let draining = load.since_flood().is_some_and(|since| since < DRAINING);
    let expected: &[u16] = if draining { &[200, 429] } else { &[200] };
    let first = person
        .get(
            "newcomer: first sign-in (flood's address, after)",
            "ScoringTasks?$top=1",
            expected,
        )
        .await;
    if first.is(429) {
        let wait = first.retry_after.unwrap_or(DRAINING).min(DRAINING);
        tokio::time::sleep(wait).await;
        person
            .get(
                "newcomer: first sign-in (flood's address, after, told to wait)",
                "ScoringTasks?$top=1",
                &[200],
            )
            .await;
    }
}

/// A new client (no connection reused) for `user` at `address`.
fn fresh(template: &Person, user: &str, address: &str) -> Person {
    Person::new(
        &template.root,
        user,
        PASSWORD,
        address,
        template.recorder_arc(),
    )
}
