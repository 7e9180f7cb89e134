//! What every request handler shares.

use std::sync::Arc;

use crate::auth::{CredentialCache, SignInGuard};
use crate::config::Settings;
use crate::feeds::pipeline::body_budget::BodyBudget;
use crate::odata::model::EntitySet;
use crate::store::{Store, UploadWriter};
use crate::telemetry::metrics::Metrics;
use crate::uploads::SnapshotCache;

/// Finds a served entity set by name: how reads follow a navigation to its
/// target without knowing the features that declare it.
pub type SetLookup = fn(&str) -> Option<&'static EntitySet>;

/// The rows of a set `principal` may see, as constraints on them
/// (feeds/read/seen.rs); empty for all of the area's. A feed declares it.
pub type RowsSeen = fn(&crate::auth::Principal) -> Vec<crate::store::read::Constraint>;

/// Finds what readers see of a served entity set by its name, the same way.
pub type RowsSeenLookup = fn(&str) -> Option<RowsSeen>;

/// What every request handler shares, behind one `Arc`: axum clones the state for
/// each request and each layer that takes it, and a clone of every cache and
/// handle here was a third of a one-row request's CPU (docs/benchmarks.md,
/// "Where a request's time went").
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> Self {
        Self(Arc::new(shared))
    }

    /// The `Host` values answered to, set once before serving (a copy is made if
    /// the state is already shared).
    pub fn set_allowed_hosts(&mut self, hosts: Arc<[String]>) {
        Arc::make_mut(&mut self.0).allowed_hosts = hosts;
    }
}

impl Shared {
    /// The server's signing key, read (or made) once per process: print links
    /// are signed with it, and second marking's choice of tasks is keyed by it.
    pub async fn signing_key(&self) -> Result<&[u8], crate::store::StoreError> {
        let key = self
            .link_key
            .get_or_try_init(|| async { self.store.signing_key().await })
            .await?;
        Ok(key.as_slice())
    }

    /// [`Shared::signing_key`] for a write whose transaction is open: read (or
    /// made) in it the first time.
    pub async fn signing_key_in(
        &self,
        tx: &mut crate::store::Tx,
    ) -> Result<&[u8], crate::store::StoreError> {
        let key = self.link_key.get_or_try_init(|| tx.signing_key()).await?;
        Ok(key.as_slice())
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The handles and caches in [`AppState`].
#[derive(Clone)]
pub struct Shared {
    pub store: Store,
    /// Every served entity set by name (`feeds::catalogue::by_name`).
    pub sets: SetLookup,
    /// Which rows each reader sees of a set (`feeds::catalogue::rows_seen`).
    pub rows_seen: RowsSeenLookup,
    pub credentials: CredentialCache,
    pub sign_in: SignInGuard,
    pub settings: Arc<Settings>,
    /// The `Host` values answered to; empty for any (feeds::pipeline::allowed_host).
    pub allowed_hosts: Arc<[String]>,
    /// What request bodies may hold at once (feeds::pipeline::body_budget).
    pub body_budget: BodyBudget,
    /// `trusted_proxies` from the settings, as networks (auth::address).
    pub trusted_proxies: Arc<[ipnet::IpNet]>,
    /// Customer areas found to exist (feeds/pipeline/gate.rs), for `account_cache_seconds`.
    pub known_areas: moka::sync::Cache<i32, ()>,
    /// What `/metrics` reports (feeds/endpoints/metrics.rs).
    pub metrics: Arc<Metrics>,
    /// The key print links are signed with, read from the database once
    /// (feeds/endpoints/print.rs).
    pub link_key: Arc<tokio::sync::OnceCell<Vec<u8>>>,
    /// What snapshots fixed, as uploads are checked against it: a snapshot never
    /// changes once made, so it is read once per process (uploads/).
    pub snapshots: SnapshotCache,
    /// Writes answer uploads in groups (store::upload_writer).
    pub uploads: UploadWriter,
    /// Told when a job is queued, so that this process's runner starts on it at
    /// once (jobs/).
    pub jobs_queued: Arc<tokio::sync::Notify>,
}
