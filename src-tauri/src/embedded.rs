//! The server that runs inside the app: its own SQLite file, the demo data, and a
//! local account for the app itself.

use std::path::Path;

use anyhow::Context;
use rand::distr::{Alphanumeric, SampleString};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};

use scoredesk_server::auth::{hash_password, Role};
use scoredesk_server::config::{sqlite_url, Settings};
use scoredesk_server::seed::demo::{seed_demo, DEMO_ACCOUNTS};
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

#[derive(Serialize, Deserialize)]
struct AccountFile {
    username: String,
    password: String,
}

pub async fn start(data_dir: &Path) -> anyhow::Result<EmbeddedServer> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("creating {}", data_dir.display()))?;
    let settings = Settings {
        database_url: SecretString::from(sqlite_url(&data_dir.join("scoredesk.db"))),
        ..Settings::default()
    };
    let app = App::build(settings).await?;
    let store = app.store().clone();
    seed_demo(&store).await?;
    let demo_admin = store
        .find_account(DEMO_ACCOUNTS[0].username)
        .await?
        .context("the demo administrator is missing")?;
    let customer_id = demo_admin
        .customer_id
        .context("the demo administrator has no area")?;
    let area_name = store.customer_name(customer_id).await?.unwrap_or_default();
    let account = ensure_desktop_account(&store, data_dir, customer_id).await?;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    tauri::async_runtime::spawn(app.serve(listener, async {
        let _ = stopped.await;
    }));
    tracing::info!(%base_url, "embedded server started");
    // Where the server listens, for other OData tools on this machine (and the
    // desktop tests' second client). No secret: they bring their own account.
    std::fs::write(
        data_dir.join(SERVER_FILE),
        serde_json::json!({ "baseUrl": base_url, "customerId": customer_id }).to_string(),
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

/// Reads the app's account file, creating the account (and the file) if either is missing.
async fn ensure_desktop_account(
    store: &Store,
    data_dir: &Path,
    customer_id: i32,
) -> anyhow::Result<AccountFile> {
    let path = data_dir.join(ACCOUNT_FILE);
    let account = match std::fs::read_to_string(&path) {
        Ok(text) => {
            serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?
        }
        Err(_) => {
            let account = AccountFile {
                username: DESKTOP_USERNAME.into(),
                password: Alphanumeric.sample_string(&mut rand::rng(), 32),
            };
            write_private(&path, &serde_json::to_string(&account)?)?;
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
