//! The OData version 3 protocol, knowing nothing of scoring or of SQL: resource paths
//! and query options, the `$filter` grammar and the typed query it resolves to, the
//! declarations of entity sets, formats, `$metadata`, `$batch`, and the error body.

pub mod action_params;
pub mod atom;
pub mod atom_body;
mod atom_documents;
mod atom_entry;
#[cfg(test)]
mod atom_written;
pub mod batch;
pub mod body;
pub mod chunks;
pub mod edm;
pub mod error;
pub mod etag;
pub mod expand;
pub mod filter;
#[cfg(test)]
pub(crate) mod filter_properties;
pub mod format;
pub mod json;
mod json_entity;
pub mod key;
pub mod links;
pub mod metadata;
pub mod model;
pub mod orderby;
pub mod path;
pub mod query;
pub mod service_document;
pub mod skiptoken;
pub mod strict_json;
pub mod touched;
pub mod typed;
pub mod value;

pub use error::ApiError;
