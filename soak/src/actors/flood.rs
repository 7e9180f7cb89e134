//! The wrong-password flood, during minutes 3 to 6 of every ten: 16 clients at
//! the flood's address guess passwords of five real scorers' accounts (whose
//! owners work from other addresses) and of names that do not exist, as fast as
//! the server answers. Each guess must be refused (401, or 429 once limited);
//! the real people, including those sharing the flood's address, must be served.

use std::sync::Arc;

use rand::Rng;

use super::Load;
use crate::client::Person;
use crate::setup::scorer;

pub const CLIENTS: usize = 16;
/// The scorers whose accounts are guessed at.
pub const TARGETS: std::ops::Range<usize> = 5..10;

pub async fn run(load: Arc<Load>, base: Person) {
    let guesser = base;
    let mut n = 0u64;
    while !load.stopping() {
        if !load.flooding() {
            load.pause(1_000, 1_000).await;
            continue;
        }
        n += 1;
        let name = if n.is_multiple_of(2) {
            scorer(rand::rng().random_range(TARGETS))
        } else {
            format!("nobody-{}", rand::rng().random_range(0..1_000_000))
        };
        let wrong = format!("guess-{n}");
        guesser
            .with_credentials(&name, &wrong)
            .get("flood: wrong password", "ScoringTasks?$top=1", &[401, 429])
            .await;
    }
}
