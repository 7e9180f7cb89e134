//! An action's request, its parameters read, and the answers actions give.

use axum::http::header::{CONTENT_TYPE, LOCATION};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::incoming::Incoming;
use super::state::AppState;
use crate::auth::Principal;
use crate::feeds::read::service_root;
use crate::model::area::CustomerArea;
use crate::odata::action_params::Arguments;
use crate::odata::filter::Literal;
use crate::odata::format::{negotiate, Format};
use crate::odata::path::ActionPath;
use crate::odata::query::QueryOptions;
use crate::odata::ApiError;

/// An action's request, its parameters read.
pub struct ActionRequest<'a> {
    pub state: &'a AppState,
    pub area: CustomerArea,
    pub principal: &'a Principal,
    pub incoming: &'a Incoming,
    pub path: &'a ActionPath,
    pub options: &'a QueryOptions,
    pub arguments: Arguments,
}

impl ActionRequest<'_> {
    pub fn name(&self) -> &'static str {
        self.path.action.name
    }

    /// A string parameter the action cannot do without.
    pub fn required_text(&self, parameter: &str, what: &str) -> Result<String, ApiError> {
        self.arguments
            .text(parameter)
            .map(str::to_owned)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{}: the parameter {parameter} is required: {what}",
                    self.name()
                ))
            })
    }

    /// An Edm.Int64 parameter the action cannot do without.
    pub fn required_int64(&self, parameter: &str, what: &str) -> Result<i64, ApiError> {
        self.arguments.int64(parameter).ok_or_else(|| {
            ApiError::bad_request(format!(
                "{}: the parameter {parameter} is required: {what}",
                self.name()
            ))
        })
    }

    /// The ID of the result a bound action names (`Results(<id>)/Purge`).
    pub fn bound_result(&self) -> Result<i32, ApiError> {
        match self
            .path
            .binding
            .as_ref()
            .and_then(|path| path.key.as_ref())
            .and_then(|key| key.0.first())
        {
            Some((_, Literal::Int32(id))) => Ok(*id),
            _ => Err(ApiError::Internal(anyhow::anyhow!(
                "{} was routed without its result's key",
                self.name()
            ))),
        }
    }

    /// 202: the work is queued; `Location` is its audit log entry, where its
    /// progress shows.
    pub fn accepted(&self, entry: i32) -> Response {
        let location = format!(
            "{}ResultsAuditLog({entry})",
            service_root(&self.incoming.headers, self.area)
        );
        let mut response = StatusCode::ACCEPTED.into_response();
        let headers = response.headers_mut();
        headers.insert("DataServiceVersion", HeaderValue::from_static("3.0;"));
        if let Ok(value) = HeaderValue::from_str(&location) {
            headers.insert(LOCATION, value);
        }
        response
    }

    /// 200 with an action's return value: JSON light's `{"odata.metadata", "value"}`
    /// (or the whole record for a complex type), or verbose JSON's
    /// `{"d": {"<action>": value}}` for a version 2 client.
    pub fn returned(
        &self,
        type_name: &str,
        value: serde_json::Value,
    ) -> Result<Response, ApiError> {
        let negotiated = negotiate(
            &self.incoming.headers,
            self.options.format.as_deref(),
            false,
        )?;
        let (body, content_type) = match negotiated.format {
            Format::Atom => (
                crate::odata::atom::value_document(self.name(), type_name, &value),
                "application/xml;charset=utf-8",
            ),
            Format::JsonVerbose => (
                json!({"d": {self.name(): value}}).to_string().into_bytes(),
                "application/json;charset=utf-8",
            ),
            Format::JsonNoMetadata => {
                let body = match value {
                    serde_json::Value::Object(record) => serde_json::Value::Object(record),
                    value => json!({"value": value}),
                };
                (
                    body.to_string().into_bytes(),
                    "application/json;odata=nometadata;charset=utf-8",
                )
            }
            Format::JsonLight | Format::JsonFullMetadata => {
                let metadata = format!(
                    "{}$metadata#{type_name}",
                    service_root(&self.incoming.headers, self.area)
                );
                let body = match value {
                    serde_json::Value::Object(mut record) => {
                        record.insert("odata.metadata".into(), metadata.into());
                        serde_json::Value::Object(record)
                    }
                    value => json!({"odata.metadata": metadata, "value": value}),
                };
                let content_type = if negotiated.format == Format::JsonFullMetadata {
                    "application/json;odata=fullmetadata;charset=utf-8"
                } else {
                    "application/json;odata=minimalmetadata;charset=utf-8"
                };
                (body.to_string().into_bytes(), content_type)
            }
        };
        let mut response = (StatusCode::OK, body).into_response();
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        headers.insert(
            "DataServiceVersion",
            HeaderValue::from_static(negotiated.data_service_version()),
        );
        Ok(response)
    }

    /// The client's address, for the audit log's Source.
    pub fn source(&self) -> Option<String> {
        self.incoming.remote.map(|address| address.to_string())
    }
}
