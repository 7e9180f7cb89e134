//! The OData version 3 protocol, knowing nothing of scoring: the error body, the
//! `$filter` grammar, the service document, and response helpers.

pub mod batch;
pub mod body;
pub mod edm;
pub mod error;
pub mod etag;
pub mod expand;
pub mod filter;
#[cfg(test)]
mod filter_properties;
pub mod filter_sql;
pub mod format;
pub mod json;
pub mod metadata;
pub mod model;
pub mod orderby;
pub mod path;
pub mod query;
pub mod service_document;
pub mod skiptoken;
pub mod sql;
pub mod touched;
pub mod value;

pub use error::ApiError;
