//! People signing in for the first time from somewhere new, every 20 s: a
//! scorer whose account the flood is guessing, from an address never seen (they
//! may be delayed, never refused), and every minute a scorer the flood is not
//! guessing, from the flood's own address: served when the flood has stopped.

use std::sync::Arc;

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
            // After the flood, served; during it, the address's sign-ins are spaced
            // out to its limit and may be refused: counted apart, not a failure.
            let (route, expected): (&'static str, &[u16]) = if load.flooding() {
                (
                    "newcomer: first sign-in (flood's address, during)",
                    &[200, 429],
                )
            } else {
                ("newcomer: first sign-in (flood's address, after)", &[200])
            };
            fresh(&template, &scorer(30 + n as usize % 10), FLOOD_ADDRESS)
                .get(route, "ScoringTasks?$top=1", expected)
                .await;
        }
        load.pause(20_000, 20_000).await;
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
