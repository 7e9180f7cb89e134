//! `seed --demo`: two customer areas with accounts, assessments and results, so that
//! a person can try every feature. Seeding twice changes nothing.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::content::{HARBOUR, NORTHWIND};
use super::writer::{write_area, AreaPlan};
use crate::auth::{hash_password, Role};
use crate::store::{now_millis, NewAccount, Store};

/// The password of every demo account (documented in README.md).
pub const DEMO_PASSWORD: &str = "scoredesk-demo";

pub struct DemoAccount {
    pub username: &'static str,
    pub role: Role,
    /// 0: Northwind Academy, 1: Harbour College.
    pub area: usize,
}

pub const DEMO_ACCOUNTS: &[DemoAccount] = &[
    DemoAccount {
        username: "northwind-admin",
        role: Role::Admin,
        area: 0,
    },
    DemoAccount {
        username: "northwind-scorer",
        role: Role::Scorer,
        area: 0,
    },
    DemoAccount {
        username: "northwind-coordinator",
        role: Role::Coordinator,
        area: 0,
    },
    DemoAccount {
        username: "harbour-admin",
        role: Role::Admin,
        area: 1,
    },
    DemoAccount {
        username: "harbour-scorer",
        role: Role::Scorer,
        area: 1,
    },
    DemoAccount {
        username: "northwind-lead",
        role: Role::Lead,
        area: 0,
    },
];

pub const DEMO_AREA_NAMES: [&str; 2] = ["Northwind Academy", "Harbour College"];

#[derive(Debug, PartialEq, Eq)]
pub enum DemoOutcome {
    /// Created now; the IDs of the two customer areas.
    Seeded { customer_ids: [i32; 2] },
    /// The demo accounts exist already; nothing was written.
    AlreadyPresent,
}

/// Who can sign in with the demo accounts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoLogins {
    /// Whoever read the README: every account's password is [`DEMO_PASSWORD`]. For a
    /// server run to show or try the service.
    Published,
    /// Nobody: each account gets a random password that is never kept or shown. For
    /// the desktop app's embedded server, which every process on the machine could
    /// reach; an operator can still set one with `account password`.
    Unknowable,
}

impl DemoLogins {
    fn password(self) -> String {
        match self {
            DemoLogins::Published => DEMO_PASSWORD.to_owned(),
            DemoLogins::Unknowable => {
                use rand::distr::{Alphanumeric, SampleString};
                Alphanumeric.sample_string(&mut rand::rng(), 40)
            }
        }
    }
}

/// Gives every demo account that still has the published password an unknowable
/// one; returns how many it changed. Databases seeded before [`DemoLogins`] existed
/// have published passwords.
pub async fn make_demo_logins_unknowable(store: &Store) -> anyhow::Result<usize> {
    let mut changed = 0;
    for account in DEMO_ACCOUNTS {
        let Some(stored) = store.find_account(account.username).await? else {
            continue;
        };
        let published = tokio::task::spawn_blocking(move || {
            crate::auth::verify_password(DEMO_PASSWORD, &stored.password_hash)
        })
        .await?;
        if published {
            let hash =
                tokio::task::spawn_blocking(|| hash_password(&DemoLogins::Unknowable.password()))
                    .await??;
            store.set_password(account.username, &hash).await?;
            changed += 1;
        }
    }
    Ok(changed)
}

/// Seeds the demo in one transaction: all of it or, on failure, nothing.
pub async fn seed_demo(store: &Store, logins: DemoLogins) -> anyhow::Result<DemoOutcome> {
    // Hash before opening the transaction: argon2 is slow on purpose.
    let hashes = tokio::task::spawn_blocking(move || {
        DEMO_ACCOUNTS
            .iter()
            .map(|_| hash_password(&logins.password()))
            .collect::<anyhow::Result<Vec<_>>>()
    })
    .await??;
    let mut tx = store.begin().await?;
    if tx.account_exists(DEMO_ACCOUNTS[0].username).await? {
        return Ok(DemoOutcome::AlreadyPresent);
    }
    let now = now_millis();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let northwind = tx.insert_customer(DEMO_AREA_NAMES[0]).await?;
    let harbour = tx.insert_customer(DEMO_AREA_NAMES[1]).await?;
    let areas_seeded = [northwind, harbour];
    for (account, hash) in DEMO_ACCOUNTS.iter().zip(&hashes) {
        tx.insert_account(NewAccount {
            customer_id: Some(areas_seeded[account.area].id()),
            username: account.username,
            password_hash: hash,
            role: account.role.as_str(),
        })
        .await?;
    }
    let areas = [
        AreaPlan {
            area: northwind,
            assessments: NORTHWIND,
            groups: &[
                "Morning Cohort",
                "Evening Cohort",
                "Apprentices 2026",
                "Remote Learners",
            ],
            participants: 48,
            results: 240,
            id_base: 2_185_231_530_000_000 + i64::from(northwind.id()) * 100_000,
            unscored_share: 0.8,
        },
        AreaPlan {
            area: harbour,
            assessments: HARBOUR,
            groups: &["Deckhands 2026"],
            participants: 12,
            results: 40,
            id_base: 2_185_231_530_000_000 + i64::from(harbour.id()) * 100_000,
            unscored_share: 0.8,
        },
    ];
    for plan in &areas {
        write_area(&mut tx, &mut rng, plan, now).await?;
    }
    tx.commit().await?;
    Ok(DemoOutcome::Seeded {
        customer_ids: areas_seeded.map(|area| area.id()),
    })
}
