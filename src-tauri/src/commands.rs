//! The commands the UI invokes. Each returns data or a [`CommandError`].

use secrecy::SecretString;
use serde::Deserialize;
use tauri::State;

use crate::client::ODataClient;
use crate::error::CommandError;
use crate::state::{status_of, ConnectionStatus, DesktopState};

/// The connection state and the open task count of the active server.
#[tauri::command]
pub async fn connection_status(
    state: State<'_, DesktopState>,
) -> Result<ConnectionStatus, CommandError> {
    Ok(state.status().await)
}

/// A remote server as the UI's form gives it. The password passes through once and
/// stays on the Rust side.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteServer {
    url: String,
    customer_id: i32,
    username: String,
    password: SecretString,
}

/// Tries the remote server; switches to it only if it answers with the account.
#[tauri::command]
pub async fn connect_remote(
    state: State<'_, DesktopState>,
    server: RemoteServer,
) -> Result<ConnectionStatus, CommandError> {
    let url = reqwest::Url::parse(server.url.trim()).map_err(|_| {
        CommandError::InvalidInput(format!("'{}' is not a valid server URL.", server.url))
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(CommandError::InvalidInput(
            "The server URL must start with http:// or https://.".into(),
        ));
    }
    if server.customer_id <= 0 {
        return Err(CommandError::InvalidInput(
            "The customer area is a positive number.".into(),
        ));
    }
    if server.username.trim().is_empty() {
        return Err(CommandError::InvalidInput(
            "Enter the account's user name.".into(),
        ));
    }
    let client = ODataClient::new(
        url.as_str(),
        server.customer_id,
        server.username.trim(),
        server.password,
    );
    let status = status_of(&client, None, "remote").await;
    if status.state == "connected" {
        state.use_remote(client).await;
    }
    Ok(status)
}

/// Goes back to the embedded server.
#[tauri::command]
pub async fn use_embedded(
    state: State<'_, DesktopState>,
) -> Result<ConnectionStatus, CommandError> {
    state.use_embedded().await;
    Ok(state.status().await)
}
