//! What the app knows about its servers: the embedded one as it starts, and a remote
//! one when the user chose it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Serialize;
use tokio::sync::RwLock;
use ts_rs::TS;

use crate::client::{ODataClient, RequestFailure};
use crate::embedded::EmbeddedServer;
use crate::error::CommandError;
use crate::saved_connection::SecretStore;

#[derive(Default)]
pub struct DesktopState {
    inner: RwLock<Inner>,
    /// The app's data directory, set once at start.
    data_dir: OnceLock<PathBuf>,
    /// Scans decoded ahead of "next task".
    pub scans: crate::reading::PreparedScans,
}

#[derive(Default)]
struct Inner {
    embedded: Embedded,
    /// When set, the UI works against this server instead of the embedded one.
    remote: Option<Remote>,
    /// Something the user should know about the connection although it works, such
    /// as a remembered server whose password could not be read.
    notice: Option<String>,
}

struct Remote {
    client: ODataClient,
    /// Where its password is remembered.
    secret_store: SecretStore,
}

#[derive(Default)]
enum Embedded {
    #[default]
    Starting,
    Running {
        server: EmbeddedServer,
        client: ODataClient,
    },
    Failed(String),
}

/// How the active server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum ConnectionState {
    Starting,
    Connected,
    Unauthorized,
    Unreachable,
    Failed,
}

/// Which server is in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum ConnectionMode {
    Embedded,
    Remote,
}

/// What the first screen shows (its TypeScript type is generated from this one).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ConnectionStatus {
    pub state: ConnectionState,
    pub mode: ConnectionMode,
    pub server_url: Option<String>,
    pub customer_id: Option<i32>,
    pub area_name: Option<String>,
    pub username: Option<String>,
    pub open_tasks: Option<i64>,
    pub message: Option<String>,
    pub notice: Option<String>,
    /// For a remote server: where its password is remembered.
    pub password_store: Option<SecretStore>,
    pub checked_at: String,
}

impl ConnectionStatus {
    fn new(state: ConnectionState, mode: ConnectionMode) -> Self {
        Self {
            state,
            mode,
            server_url: None,
            customer_id: None,
            area_name: None,
            username: None,
            open_tasks: None,
            message: None,
            notice: None,
            password_store: None,
            checked_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        }
    }
}

impl DesktopState {
    pub async fn embedded_started(&self, server: EmbeddedServer) {
        let client = ODataClient::new(
            &server.base_url,
            server.customer_id,
            &server.username,
            server.password.clone(),
        );
        self.inner.write().await.embedded = Embedded::Running { server, client };
    }

    pub async fn embedded_failed(&self, message: String) {
        self.inner.write().await.embedded = Embedded::Failed(message);
    }

    pub fn set_data_dir(&self, dir: PathBuf) {
        let _ = self.data_dir.set(dir);
    }

    pub fn data_dir(&self) -> Option<&Path> {
        self.data_dir.get().map(PathBuf::as_path)
    }

    pub async fn use_remote(&self, client: ODataClient, secret_store: SecretStore) {
        let mut inner = self.inner.write().await;
        inner.remote = Some(Remote {
            client,
            secret_store,
        });
        inner.notice = None;
    }

    pub async fn use_embedded(&self) {
        self.inner.write().await.remote = None;
    }

    pub async fn set_notice(&self, notice: String) {
        self.inner.write().await.notice = Some(notice);
    }

    /// Which server's drafts are in use: "embedded" (its address changes at each
    /// start), or the remote server's address and customer area.
    pub async fn draft_scope(&self) -> String {
        match &self.inner.read().await.remote {
            Some(remote) => format!(
                "remote {}#{}",
                remote.client.base_url, remote.client.customer_id
            ),
            None => "embedded".to_owned(),
        }
    }

    /// The client of the server the UI works with now, if it is up.
    pub async fn active_client(&self) -> Option<ODataClient> {
        let inner = self.inner.read().await;
        match (&inner.remote, &inner.embedded) {
            (Some(remote), _) => Some(remote.client.clone()),
            (None, Embedded::Running { client, .. }) => Some(client.clone()),
            (None, _) => None,
        }
    }

    /// The active server's client, or the error a command answers while the
    /// built-in server starts.
    pub async fn connected_client(&self) -> Result<ODataClient, CommandError> {
        self.active_client().await.ok_or_else(|| {
            CommandError::NotConnected("The built-in server is still starting.".into())
        })
    }

    /// Asks the active server for the open task count and describes the outcome.
    pub async fn status(&self) -> ConnectionStatus {
        let (client, area_name, mode, password_store, notice) = {
            let inner = self.inner.read().await;
            let notice = inner.notice.clone();
            match (&inner.remote, &inner.embedded) {
                (Some(remote), _) => (
                    remote.client.clone(),
                    None,
                    ConnectionMode::Remote,
                    Some(remote.secret_store),
                    notice,
                ),
                (None, Embedded::Running { server, client }) => (
                    client.clone(),
                    Some(server.area_name.clone()),
                    ConnectionMode::Embedded,
                    None,
                    notice,
                ),
                (None, Embedded::Starting) => {
                    return ConnectionStatus::new(
                        ConnectionState::Starting,
                        ConnectionMode::Embedded,
                    )
                }
                (None, Embedded::Failed(message)) => {
                    let mut status =
                        ConnectionStatus::new(ConnectionState::Failed, ConnectionMode::Embedded);
                    status.message = Some(message.clone());
                    return status;
                }
            }
        };
        let mut status = status_of(&client, area_name, mode).await;
        status.password_store = password_store;
        status.notice = notice;
        status
    }
}

/// The status a client's server gives now.
pub async fn status_of(
    client: &ODataClient,
    area_name: Option<String>,
    mode: ConnectionMode,
) -> ConnectionStatus {
    let outcome = client
        .count("ScoringTasks/$count", &crate::task_filters::scorable())
        .await;
    let state = match &outcome {
        // Signed in; a coordinator may not read the scorers' tasks, and works on
        // the delivery desk instead.
        Ok(_) | Err(RequestFailure::Forbidden(_)) => ConnectionState::Connected,
        Err(RequestFailure::Unauthorized(_)) => ConnectionState::Unauthorized,
        Err(RequestFailure::Unreachable(_)) => ConnectionState::Unreachable,
        Err(RequestFailure::Failed(_) | RequestFailure::Stale(_) | RequestFailure::Conflict(_)) => {
            ConnectionState::Failed
        }
    };
    let mut status = ConnectionStatus::new(state, mode);
    status.server_url = Some(client.base_url.clone());
    status.customer_id = Some(client.customer_id);
    status.area_name = area_name;
    status.username = Some(client.username.clone());
    match outcome {
        Ok(count) => status.open_tasks = Some(count),
        Err(RequestFailure::Forbidden(_)) => {}
        Err(failure) => status.message = Some(failure.message().to_owned()),
    }
    status
}
