//! Serving a routed request: reads, and PUTs in a transaction of their own. `$batch`
//! runs its operations through the same [`Service`].

use axum::body::Bytes;
use axum::response::{IntoResponse, Response};

use super::route::{Incoming, Routed, Target};
use super::state::AppState;
use super::{actions, entities, read, scoring, service_root, write, writers};
use crate::auth::Principal;
use crate::model::area::CustomerArea;
use crate::odata::path::EntityPath;
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;
use crate::store::WriteScope;

/// `$metadata`, generated once: the declarations do not change while we run.
fn metadata_document() -> Response {
    static DOCUMENT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let body = DOCUMENT.get_or_init(|| {
        crate::odata::metadata::document(
            entities::ALL,
            actions::ACTIONS,
            actions::COMPLEX_TYPES,
            entities::by_name,
        )
    });
    (
        [
            ("Content-Type", "application/xml;charset=utf-8"),
            ("DataServiceVersion", "3.0;"),
        ],
        body.clone(),
    )
        .into_response()
}

/// What serving a request needs besides the request itself.
pub struct Service<'a> {
    pub state: &'a AppState,
    pub area: CustomerArea,
    pub principal: &'a Principal,
}

impl Service<'_> {
    /// Serves a routed request other than `$batch`; a write runs in a transaction
    /// of its own.
    pub async fn serve(
        &self,
        incoming: &Incoming,
        routed: Routed,
        body: Bytes,
    ) -> Result<Response, ApiError> {
        match &routed.target {
            Target::Write { path, verb } => {
                let request = self.write_request(incoming, path, &routed.options, body);
                let mut writes = WriteScope::new(&self.state.store);
                let written = writers::run(&request, *verb, &mut writes).await?;
                writes.commit().await?;
                request.respond(written).await
            }
            Target::Action { path } => {
                actions::invoke(
                    self.state,
                    self.area,
                    self.principal,
                    incoming,
                    path,
                    &routed.options,
                    body,
                )
                .await
            }
            _ => self.read(incoming, routed).await,
        }
    }

    /// Serves a routed read (service document, `$metadata`, an entity path).
    pub async fn read(&self, incoming: &Incoming, routed: Routed) -> Result<Response, ApiError> {
        match routed.target {
            Target::ServiceDocument => {
                service_root::service_document(&incoming.headers, self.area, &routed.options)
            }
            Target::Metadata => Ok(metadata_document()),
            Target::Read { path, head } => {
                scoring::before_read(self.state, self.area, &path).await?;
                let read_request = read::ReadRequest {
                    area: self.area,
                    headers: &incoming.headers,
                    uri: &incoming.uri,
                    head,
                };
                read::get(self.state, read_request, &path, &routed.options).await
            }
            Target::Batch | Target::Write { .. } | Target::Action { .. } => Err(
                ApiError::Internal(anyhow::anyhow!("a write was served as a read")),
            ),
        }
    }

    pub fn write_request<'r>(
        &'r self,
        incoming: &'r Incoming,
        path: &'r EntityPath,
        options: &'r QueryOptions,
        body: Bytes,
    ) -> write::WriteRequest<'r> {
        write::WriteRequest {
            state: self.state,
            area: self.area,
            principal: self.principal,
            headers: &incoming.headers,
            uri: &incoming.uri,
            path,
            options,
            body,
        }
    }
}
