//! A request's way from the socket to the handler its declaration names, and its
//! answer back: every step that does not depend on which feature serves it.

pub mod access;
pub mod allowed_host;
pub mod batch;
pub mod body_budget;
pub mod dispatch;
pub mod error_format;
pub mod frame;
pub mod gate;
pub mod metadata;
pub mod read_body;
pub mod route;
pub mod service;
pub mod service_root;
pub mod store_errors;
pub mod unread_body;

pub use allowed_host::default_hosts;
pub use body_budget::BodyBudget;
