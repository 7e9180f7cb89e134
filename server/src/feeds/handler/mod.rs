//! What a feature's feeds and actions are written against: the declaration that
//! carries their handlers (`feed`), the requests they get (`write`, `action`,
//! `incoming`), the state they share, and the limits declarations use. Nothing here
//! knows which features exist or how a request reaches them.

pub mod action;
pub mod feed;
pub mod incoming;
pub mod limits;
pub mod state;
pub mod write;

pub use action::ActionRequest;
pub(crate) use feed::{action_handler, write_handler};
pub use feed::{ActionHandler, BeforeRead, Feature, Feed, Served, ServedAction, WriteHandler};
pub use incoming::Incoming;
pub use state::AppState;
pub use write::{check_unchanged, WriteRequest, Written};
