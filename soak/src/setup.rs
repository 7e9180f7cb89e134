//! The soak's world, made before the server starts: `seed --scale` tasks for the
//! scorers (100 groups), an assessment of ten single-choice questions and one
//! written answer for the coordinators' uploads (its key known here, so that each
//! result's total can be checked against what the load uploaded), participants,
//! and the accounts of everyone the load plays.

use anyhow::Context;

use scoredesk_server::auth::hash_password;
use scoredesk_server::model::area::CustomerArea;
use scoredesk_server::model::question_kind::QuestionKind;
use scoredesk_server::model::scoring_rule::ScoringRule;
use scoredesk_server::seed::scale::seed_scale;
use scoredesk_server::store::seed_writes::NewQuestion;
use scoredesk_server::store::{now_millis, NewAccount, Store};

/// Everyone's password: one argon2 hash made once keeps set-up fast.
pub const PASSWORD: &str = "soak-password";
pub const ADMIN: &str = "soak-admin";
/// A server administrator, for `/metrics` (its figures span every area).
pub const METRICS: &str = "soak-metrics";
pub const SCORERS: usize = 40;
pub const COORDINATORS: usize = 4;
pub const READERS: usize = 2;
/// Single-choice questions of the upload assessment, worth `CHOICE_MARKS` each
/// when choice `CORRECT_CHOICE` is chosen; the last question is written.
pub const CHOICE_QUESTIONS: i64 = 10;
pub const CHOICE_MARKS: i32 = 2;
pub const CORRECT_CHOICE: i32 = 2;
pub const CHOICES: i32 = 4;
pub const PARTICIPANTS: usize = 200;
/// The share of each scale question's scripts marked twice, and the difference
/// of totals within which two markings agree (beyond it, a third resolves).
pub const MARKING_SHARE: i64 = 20;
pub const MARKING_TOLERANCE: i64 = 1;
/// The lead marker, who makes `SEEDS_PER_QUESTION` check scripts (seeds) of each
/// scale question from `SEED_GROUP`'s scripts before the load starts, and
/// releases the markers they pause; the share of a scorer's scripts after which
/// a seed is served, and the mean distance from the definitive marks beyond
/// which he is paused. No scorer polls `SEED_GROUP`'s real scripts, so copies
/// (newer results than any the soak began with) are the only tasks he finds
/// there.
pub const LEAD: &str = "soak-lead";
pub const SEEDS_PER_QUESTION: usize = 3;
pub const SEED_GROUP: &str = "Group-099";
pub const SEED_RATE: i64 = 5;
pub const SEED_TOLERANCE: i64 = 2;

pub fn scorer(n: usize) -> String {
    format!("soak-scorer-{n:02}")
}

pub fn coordinator(n: usize) -> String {
    format!("soak-coordinator-{n}")
}

pub fn reader(n: usize) -> String {
    format!("soak-reader-{n}")
}

/// What the load needs to know of the world.
#[derive(Clone, Debug)]
pub struct World {
    pub customer: i32,
    pub upload_assessment: i64,
    pub upload_group: i32,
    pub participants: Vec<i32>,
}

pub async fn make(store: &Store, tasks: usize) -> anyhow::Result<World> {
    store.migrate().await?;
    let customer = seed_scale(store, tasks, false).await?;
    let area = CustomerArea::new(customer).context("the scale area")?;
    let now = now_millis();
    let upload_assessment = 3_800_000_000_000_000 + i64::from(customer) * 100_000;
    let mut tx = store.begin().await?;
    let upload_group = tx.insert_group(area, "Uploads", "soak uploads").await?;
    let mut participants = Vec::with_capacity(PARTICIPANTS);
    for n in 0..PARTICIPANTS {
        participants.push(
            tx.insert_participant(
                area,
                &format!("soak-participant-{n:03}"),
                "Soak",
                &format!("Participant {n}"),
                &format!("p{n}@soak.invalid"),
            )
            .await?,
        );
    }
    tx.insert_assessment(
        upload_assessment,
        area,
        "Soak uploads",
        Some("en-GB"),
        "",
        now,
    )
    .await?;
    for number in 1..=CHOICE_QUESTIONS + 1 {
        let id = upload_assessment + number;
        let written = number > CHOICE_QUESTIONS;
        let kind = if written {
            QuestionKind::Essay
        } else {
            QuestionKind::MultipleChoice
        };
        tx.insert_question(&NewQuestion {
            id,
            area,
            question_type: kind.as_str(),
            description: "Soak question",
            revision: 1,
            language: Some("en-GB"),
            rule: &ScoringRule::Service,
            max_score: if written { 6 } else { CHOICE_MARKS },
            topic_id: None,
            markup: "<div class=\"question\"><p class=\"stem\">A question.</p></div>",
            // The choices keep their order, so that the key is the same on paper.
            shuffle_choices: false,
            at: now,
        })
        .await?;
        if !written {
            for order in 1..=CHOICES {
                tx.insert_choice(
                    area,
                    id,
                    order,
                    &format!("Choice {order}"),
                    order == CORRECT_CHOICE,
                )
                .await?;
            }
        }
        tx.insert_assessment_question(area, upload_assessment, number as i32, id)
            .await?;
    }
    let hash = hash_password(PASSWORD)?;
    let mut accounts = vec![(ADMIN.to_owned(), "admin"), (LEAD.to_owned(), "lead")];
    accounts.extend((0..SCORERS).map(|n| (scorer(n), "scorer")));
    accounts.extend((0..COORDINATORS).map(|n| (coordinator(n), "coordinator")));
    accounts.extend((0..READERS).map(|n| (reader(n), "coordinator")));
    for (username, role) in &accounts {
        tx.insert_account(NewAccount {
            customer_id: Some(customer),
            username,
            password_hash: &hash,
            role,
        })
        .await?;
    }
    tx.insert_account(NewAccount {
        customer_id: None,
        username: METRICS,
        password_hash: &hash,
        role: "admin",
    })
    .await?;
    tx.commit().await?;
    Ok(World {
        customer,
        upload_assessment,
        upload_group,
        participants,
    })
}
