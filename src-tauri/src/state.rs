//! What the app knows about its servers: the embedded one as it starts, and a remote
//! one when the user chose it.

use serde::Serialize;
use tokio::sync::RwLock;

use crate::client::{ODataClient, RequestFailure};
use crate::embedded::EmbeddedServer;

#[derive(Default)]
pub struct DesktopState {
    inner: RwLock<Inner>,
    /// Scans decoded ahead of "next task".
    pub scans: crate::scoring::PreparedScans,
}

#[derive(Default)]
struct Inner {
    embedded: Embedded,
    /// When set, the UI works against this server instead of the embedded one.
    remote: Option<ODataClient>,
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

/// What the first screen shows; mirrored by `ConnectionStatus` in ui/src/lib/api.ts.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionStatus {
    pub state: &'static str,
    pub mode: &'static str,
    pub server_url: Option<String>,
    pub customer_id: Option<i32>,
    pub area_name: Option<String>,
    pub username: Option<String>,
    pub open_tasks: Option<i64>,
    pub message: Option<String>,
    pub checked_at: String,
}

impl ConnectionStatus {
    fn new(state: &'static str, mode: &'static str) -> Self {
        Self {
            state,
            mode,
            server_url: None,
            customer_id: None,
            area_name: None,
            username: None,
            open_tasks: None,
            message: None,
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

    pub async fn use_remote(&self, client: ODataClient) {
        self.inner.write().await.remote = Some(client);
    }

    pub async fn use_embedded(&self) {
        self.inner.write().await.remote = None;
    }

    /// The client of the server the UI works with now, if it is up.
    pub async fn active_client(&self) -> Option<ODataClient> {
        let inner = self.inner.read().await;
        match (&inner.remote, &inner.embedded) {
            (Some(remote), _) => Some(remote.clone()),
            (None, Embedded::Running { client, .. }) => Some(client.clone()),
            (None, _) => None,
        }
    }

    /// Asks the active server for the open task count and describes the outcome.
    pub async fn status(&self) -> ConnectionStatus {
        let (client, area_name, mode) = {
            let inner = self.inner.read().await;
            match (&inner.remote, &inner.embedded) {
                (Some(remote), _) => (remote.clone(), None, "remote"),
                (None, Embedded::Running { server, client }) => {
                    (client.clone(), Some(server.area_name.clone()), "embedded")
                }
                (None, Embedded::Starting) => return ConnectionStatus::new("starting", "embedded"),
                (None, Embedded::Failed(message)) => {
                    let mut status = ConnectionStatus::new("failed", "embedded");
                    status.message = Some(message.clone());
                    return status;
                }
            }
        };
        status_of(&client, area_name, mode).await
    }
}

/// The status a client's server gives now.
pub async fn status_of(
    client: &ODataClient,
    area_name: Option<String>,
    mode: &'static str,
) -> ConnectionStatus {
    let outcome = client.count_open_tasks().await;
    let state = match &outcome {
        Ok(_) => "connected",
        Err(RequestFailure::Unauthorized(_)) => "unauthorized",
        Err(RequestFailure::Unreachable(_)) => "unreachable",
        Err(RequestFailure::Failed(_) | RequestFailure::Stale(_)) => "failed",
    };
    let mut status = ConnectionStatus::new(state, mode);
    status.server_url = Some(client.base_url.clone());
    status.customer_id = Some(client.customer_id);
    status.area_name = area_name;
    status.username = Some(client.username.clone());
    match outcome {
        Ok(count) => status.open_tasks = Some(count),
        Err(failure) => status.message = Some(failure.message().to_owned()),
    }
    status
}
