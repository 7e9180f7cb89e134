//! ScoreDesk's OData version 3 Delivery and Scoring Data Service.
//!
//! [`App::build`] connects to the database and prepares the routes;
//! [`App::serve`] runs them on a listener the caller has bound, until a shutdown
//! future completes. Tests and the desktop app bind port 0 and read the port back.

pub mod auth;
pub mod cli;
pub mod config;
pub mod feeds;
pub mod model;
pub mod odata;
pub mod seed;
pub mod store;
pub mod telemetry;

use std::future::Future;
use std::time::Duration;

use axum::Router;
use secrecy::ExposeSecret;
use tokio::net::TcpListener;

use auth::CredentialCache;
use config::Settings;
use store::Store;

/// What every request handler shares.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub credentials: CredentialCache,
    pub settings: std::sync::Arc<Settings>,
}

/// A server ready to serve: its database is migrated.
pub struct App {
    state: AppState,
}

impl App {
    /// Connects to the configured database and applies pending migrations.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let store = Store::connect(settings.database_url.expose_secret()).await?;
        store.migrate().await?;
        Ok(Self::with_store(settings, store))
    }

    /// Uses an already connected and migrated store.
    pub fn with_store(settings: Settings, store: Store) -> Self {
        let credentials =
            CredentialCache::new(Duration::from_secs(settings.credential_cache_seconds));
        Self {
            state: AppState {
                store,
                credentials,
                settings: std::sync::Arc::new(settings),
            },
        }
    }

    pub fn store(&self) -> &Store {
        &self.state.store
    }

    /// The routes, for serving or for in-process tests with `tower::ServiceExt::oneshot`.
    pub fn router(&self) -> Router {
        feeds::router(self.state.clone())
    }

    /// Serves on `listener` until `shutdown` completes, then finishes open requests.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let router = self.router();
        tracing::info!(address = %listener.local_addr()?, "serving");
        axum::serve(listener, router)
            .with_graceful_shutdown(shutdown)
            .await
    }
}
