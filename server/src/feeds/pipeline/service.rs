//! Serving a routed request: reads, and PUTs in a transaction of their own. `$batch`
//! runs its operations through the same [`Service`].

use axum::body::Bytes;
use axum::response::Response;

use super::route::{Routed, Target};
use super::{metadata, service_root};
use crate::auth::Principal;
use crate::feeds::handler::{ActionRequest, AppState, Incoming, WriteRequest};
use crate::feeds::read;
use crate::model::area::CustomerArea;
use crate::odata::action_params;
use crate::odata::path::EntityPath;
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;
use crate::store::WriteScope;

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
            Target::Write { path, handler, .. } => {
                let request = self.write_request(incoming, path, &routed.options, body);
                let mut writes = WriteScope::new(&self.state.store);
                let written = handler(&request, &mut writes).await?;
                writes.commit().await?;
                request.respond(written).await
            }
            Target::Action { path, handler } => {
                let arguments =
                    action_params::read(path.action, &body, &routed.options.parameters)?;
                let request = ActionRequest {
                    state: self.state,
                    area: self.area,
                    principal: self.principal,
                    incoming,
                    path,
                    options: &routed.options,
                    arguments,
                };
                handler(&request).await
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
            Target::Metadata => Ok(metadata::document()),
            Target::Read { path, head, before } => {
                if let Some(before) = before {
                    before(self.state, self.area, self.principal, &path).await?;
                }
                let read_request = read::ReadRequest {
                    area: self.area,
                    principal: self.principal,
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
    ) -> WriteRequest<'r> {
        WriteRequest {
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
