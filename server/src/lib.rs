//! ScoreDesk's OData version 3 Delivery and Scoring Data Service.
//!
//! [`App::build`] connects to the database and prepares the routes;
//! [`App::serve`] runs them on a listener the caller has bound, until a shutdown
//! future completes. Tests and the desktop app bind port 0 and read the port back.

pub mod auth;
pub mod cli;
pub mod config;
pub mod documents;
pub mod export;
pub mod feeds;
pub mod import;
pub mod jobs;
pub mod model;
pub mod odata;
pub mod seed;
pub mod serve;
pub mod store;
pub mod telemetry;
pub mod uploads;
pub mod xml;

use std::future::Future;
use std::time::Duration;

use axum::Router;
use secrecy::ExposeSecret;
use tokio::net::TcpListener;

use auth::{CredentialCache, SignInGuard, SignInLimits};
use config::Settings;
use feeds::AppState;
use store::Store;

/// The sign-in limits the settings describe.
fn sign_in_limits(settings: &Settings) -> SignInLimits {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    SignInLimits {
        at_once: match settings.password_checks_at_once {
            0 => cores,
            n => n,
        },
        waiting: settings.password_checks_waiting,
        guesses: auth::GuessLimits {
            per_pair: settings.failed_sign_ins_per_account,
            per_address: settings.failed_sign_ins_per_address,
            window: Duration::from_secs(settings.failed_sign_in_window_seconds.max(1)),
        },
    }
}

/// The retention policies the configuration file sets (`[[retention]]`), written
/// to the database at start-up, where `FetchPurgeRetentionPeriodDays` and the
/// daily purge read them.
async fn apply_retention_settings(store: &Store, settings: &Settings) -> anyhow::Result<()> {
    for setting in &settings.retention {
        let area = model::area::CustomerArea::new(setting.customer).ok_or_else(|| {
            anyhow::anyhow!("retention: {} is not a customer area ID", setting.customer)
        })?;
        if !store.customer_exists(setting.customer).await? {
            anyhow::bail!(
                "retention: customer area {} does not exist",
                setting.customer
            );
        }
        let days = model::purge::check_retention_days(i64::from(setting.days))
            .map_err(|e| anyhow::anyhow!("retention of customer area {}: {e}", setting.customer))?;
        store
            .set_retention(area, Some(days), store::now_millis())
            .await?;
    }
    Ok(())
}

/// A server ready to serve: its database is migrated.
pub struct App {
    state: AppState,
}

impl App {
    /// Connects to the configured database and applies pending migrations. Requests
    /// are then served from a pool whose statements are bounded by the statement
    /// timeout; migrations run without it (an index on a million rows may take longer).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let url = settings.database_url.expose_secret();
        let migrating = Store::connect(url).await?;
        migrating.migrate().await?;
        migrating.close().await;
        let timeout = Duration::from_secs(settings.statement_timeout_seconds);
        let store = Store::connect_with(url, Some(timeout).filter(|t| !t.is_zero())).await?;
        apply_retention_settings(&store, &settings).await?;
        Ok(Self::with_store(settings, store))
    }

    /// Uses an already connected and migrated store.
    pub fn with_store(settings: Settings, store: Store) -> Self {
        let credentials = CredentialCache::new(
            Duration::from_secs(settings.sign_in_session_minutes.max(1) * 60),
            Duration::from_secs(settings.account_cache_seconds),
        );
        let sign_in = SignInGuard::new(sign_in_limits(&settings));
        let known_areas = moka::sync::Cache::builder()
            .max_capacity(10_000)
            .time_to_live(Duration::from_secs(settings.account_cache_seconds))
            .build();
        Self {
            state: AppState::new(feeds::handler::state::Shared {
                uploads: store::UploadWriter::new(store.clone()),
                jobs_queued: Default::default(),
                store,
                sets: feeds::catalogue::by_name,
                rows_seen: feeds::catalogue::rows_seen,
                credentials,
                sign_in,
                trusted_proxies: settings.trusted_proxies.iter().map(|p| p.net()).collect(),
                allowed_hosts: settings.allowed_hosts.iter().cloned().collect(),
                body_budget: feeds::BodyBudget::new(
                    settings.body_bytes_at_once,
                    settings.max_body_bytes,
                ),
                settings: std::sync::Arc::new(settings),
                known_areas,
                metrics: Default::default(),
                link_key: Default::default(),
                snapshots: moka::sync::Cache::builder().max_capacity(1_000).build(),
            }),
        }
    }

    pub fn store(&self) -> &Store {
        &self.state.store
    }

    /// The routes, for serving or for in-process tests with `tower::ServiceExt::oneshot`.
    pub fn router(&self) -> Router {
        feeds::router(self.state.clone())
    }

    /// Serves on `listener` until `shutdown` completes, then finishes open requests;
    /// connections are limited as the settings say (`serve::ConnectionLimits`).
    pub async fn serve(
        mut self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        if self.state.settings.allowed_hosts.is_empty() {
            self.state
                .set_allowed_hosts(feeds::default_hosts(listener.local_addr()?).into());
        }
        let router = self.router();
        let settings = &self.state.settings;
        let limits = serve::ConnectionLimits {
            max_connections: settings.max_connections,
            per_address: settings.max_connections_per_address,
            exempt: self.state.trusted_proxies.to_vec(),
            header_timeout: Duration::from_secs(settings.header_timeout_seconds.max(1)),
        };
        tracing::info!(address = %listener.local_addr()?, "serving");
        // The queue's runner stops with the server: the job in hand after the
        // group of results in flight, given back to the queue.
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let runner = tokio::spawn(jobs::run(
            self.state.store.clone(),
            jobs::Pace::from_settings(settings),
            self.state.jobs_queued.clone(),
            stopped,
        ));
        let served = serve::serve(listener, router, limits, async move {
            shutdown.await;
            let _ = stop.send(true);
        })
        .await;
        if tokio::time::timeout(Duration::from_secs(30), runner)
            .await
            .is_err()
        {
            tracing::warn!("the job runner did not stop within 30 s");
        }
        served
    }
}
