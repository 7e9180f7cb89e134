//! The server that runs inside the app: its own SQLite file, the demo data, and a
//! local account for the app itself.

use std::path::Path;

use anyhow::Context;
use rand::distr::{Alphanumeric, SampleString};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};

use scoredesk_server::auth::{hash_password, Role};
use scoredesk_server::config::{sqlite_url, Settings};
#[cfg(test)]
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use scoredesk_server::seed::demo::{
    make_demo_logins_unknowable, seed_demo, DemoLogins, DemoOutcome, DEMO_ACCOUNTS,
};
use scoredesk_server::store::{NewAccount, Store};
use scoredesk_server::App;

use crate::private_file::write_private;

/// The account the app signs in with, kept in a file only the user can read.
const ACCOUNT_FILE: &str = "desktop-account.json";
/// Written at each start: the embedded server's address and customer area.
const SERVER_FILE: &str = "embedded-server.json";
const DESKTOP_USERNAME: &str = "desktop";

/// A running embedded server and how to sign in to it.
pub struct EmbeddedServer {
    pub base_url: String,
    pub customer_id: i32,
    pub area_name: String,
    pub username: String,
    pub password: SecretString,
    // Kept so that the server runs as long as the app.
    _shutdown: tokio::sync::oneshot::Sender<()>,
}

#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AccountFile {
    username: String,
    password: String,
    /// Whether the demo accounts of this database were given unknowable passwords.
    #[serde(default)]
    demo_logins_unknowable: bool,
}

pub async fn start(data_dir: &Path) -> anyhow::Result<EmbeddedServer> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("creating {}", data_dir.display()))?;
    // The port first: the server answers only to its own address, so a web page that
    // finds the port (DNS rebinding: its own name pointed at 127.0.0.1) is refused.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let settings = Settings {
        database_url: SecretString::from(sqlite_url(&data_dir.join("scoredesk.db"))),
        allowed_hosts: vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")],
        ..Settings::default()
    };
    let app = App::build(settings).await?;
    let store = app.store().clone();
    // The demo's accounts get passwords nobody knows: any process on this machine
    // can reach the port, and the published demo password is in the README.
    let seeded = seed_demo(&store, DemoLogins::Unknowable).await?;
    let demo_admin = store
        .find_account(DEMO_ACCOUNTS[0].username)
        .await?
        .context("the demo administrator is missing")?;
    let customer_id = demo_admin
        .customer_id
        .context("the demo administrator has no area")?;
    let area_name = store.customer_name(customer_id).await?.unwrap_or_default();
    let account = ensure_desktop_account(&store, data_dir, customer_id).await?;
    if seeded == DemoOutcome::AlreadyPresent && !account.demo_logins_unknowable {
        // Seeded by a version that gave the demo accounts the published password.
        let changed = make_demo_logins_unknowable(&store).await?;
        tracing::info!(
            changed,
            "demo accounts no longer take the published password"
        );
        let updated = AccountFile {
            demo_logins_unknowable: true,
            ..account.clone()
        };
        write_private(
            &data_dir.join(ACCOUNT_FILE),
            &serde_json::to_string(&updated)?,
        )?;
    }

    let base_url = format!("http://127.0.0.1:{port}");
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    tauri::async_runtime::spawn(app.serve(listener, async {
        let _ = stopped.await;
    }));
    tracing::info!(%base_url, "embedded server started");
    // Where the server listens, for other OData tools on this machine (and the
    // desktop tests' second client). No secret: they bring their own account.
    write_private(
        &data_dir.join(SERVER_FILE),
        &serde_json::json!({ "baseUrl": base_url, "customerId": customer_id }).to_string(),
    )
    .with_context(|| format!("writing {}", data_dir.join(SERVER_FILE).display()))?;
    Ok(EmbeddedServer {
        base_url,
        customer_id,
        area_name,
        username: account.username,
        password: SecretString::from(account.password),
        _shutdown: shutdown,
    })
}

/// Reads the app's account file, creating the account (and the file) if either is
/// missing. A file that cannot be read (cut short by a crash before files were
/// written atomically, or edited by hand) is replaced with a new password, set on
/// the account: the built-in server must always start.
async fn ensure_desktop_account(
    store: &Store,
    data_dir: &Path,
    customer_id: i32,
) -> anyhow::Result<AccountFile> {
    let path = data_dir.join(ACCOUNT_FILE);
    let kept = match std::fs::read_to_string(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => {
            tracing::warn!(%error, file = %path.display(), "the app's account file cannot be read; making a new one");
            None
        }
        Ok(text) => match serde_json::from_str::<AccountFile>(&text) {
            Ok(account) => Some(account),
            Err(error) => {
                tracing::warn!(%error, file = %path.display(), "the app's account file is damaged; making a new one");
                None
            }
        },
    };
    let account = match kept {
        Some(account) => account,
        None => {
            let account = AccountFile {
                username: DESKTOP_USERNAME.into(),
                password: Alphanumeric.sample_string(&mut rand::rng(), 32),
                demo_logins_unknowable: false,
            };
            write_private(&path, &serde_json::to_string(&account)?)?;
            if store.find_account(&account.username).await?.is_some() {
                let hash = hash_password(&account.password)?;
                store.set_password(&account.username, &hash).await?;
            }
            account
        }
    };
    if store.find_account(&account.username).await?.is_none() {
        let hash = hash_password(&account.password)?;
        store
            .insert_account(NewAccount {
                customer_id: Some(customer_id),
                username: &account.username,
                password_hash: &hash,
                role: Role::Admin.as_str(),
            })
            .await?;
    }
    Ok(account)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn store_in(dir: &Path) -> Store {
        let store = Store::connect(&sqlite_url(&dir.join("scoredesk.db")))
            .await
            .unwrap();
        store.migrate().await.unwrap();
        store
    }

    #[tokio::test]
    async fn a_damaged_account_file_is_replaced_and_the_account_signs_in_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_in(dir.path()).await;
        let area = store.insert_customer("Area").await.unwrap();
        let first = ensure_desktop_account(&store, dir.path(), area)
            .await
            .unwrap();
        std::fs::write(dir.path().join(ACCOUNT_FILE), "{\"username\": \"desk").unwrap();
        let second = ensure_desktop_account(&store, dir.path(), area)
            .await
            .unwrap();
        assert_ne!(first.password, second.password);
        let stored = store.find_account(DESKTOP_USERNAME).await.unwrap().unwrap();
        assert!(scoredesk_server::auth::verify_password(
            &second.password,
            &stored.password_hash
        ));
        let third = ensure_desktop_account(&store, dir.path(), area)
            .await
            .unwrap();
        assert_eq!(third.password, second.password, "a sound file is kept");
    }

    #[tokio::test]
    async fn the_published_demo_password_opens_nothing_in_the_app() {
        let dir = tempfile::tempdir().unwrap();
        let store = store_in(dir.path()).await;
        // A database seeded by an older version, with the published password.
        seed_demo(&store, DemoLogins::Published).await.unwrap();
        assert_eq!(
            make_demo_logins_unknowable(&store).await.unwrap(),
            DEMO_ACCOUNTS.len()
        );
        for demo in DEMO_ACCOUNTS {
            let stored = store.find_account(demo.username).await.unwrap().unwrap();
            assert!(
                !scoredesk_server::auth::verify_password(DEMO_PASSWORD, &stored.password_hash),
                "{}",
                demo.username
            );
        }
        assert_eq!(make_demo_logins_unknowable(&store).await.unwrap(), 0);
    }
}
