//! An entity set's declaration with its handlers, and an action's with its own:
//! what the router asks (Apache Olingo registers a processor per resource kind the
//! same way). Nothing else matches on a set's or an action's name: routing serves
//! what a declaration holds, answers 501 for a method the set declares but has no
//! handler for yet, and 405 for one it does not declare.

use std::future::Future;
use std::pin::Pin;

use axum::response::Response;

use super::action::ActionRequest;
use super::state::AppState;
pub use super::state::RowsSeen;
use super::write::{WriteRequest, Written};
use crate::auth::Principal;
use crate::model::area::CustomerArea;
use crate::odata::model::{Action, ComplexType, EntitySet, Verb};
use crate::odata::path::EntityPath;
use crate::odata::ApiError;
use crate::store::WriteScope;

/// What a handler's `async fn` returns, boxed so that handlers of different
/// bodies share one pointer type.
pub type Served<'a, T> = Pin<Box<dyn Future<Output = Result<T, ApiError>> + Send + 'a>>;

/// A write of one method on one entity set, run in the request's transaction.
pub type WriteHandler =
    for<'a, 'r, 's> fn(&'a WriteRequest<'r>, &'a mut WriteScope<'s>) -> Served<'a, Written>;

/// What a feed does before a read of a path that starts at it (a ScoringTask's
/// ScoringResult is created when first read).
pub type BeforeRead =
    for<'a> fn(&'a AppState, CustomerArea, &'a Principal, &'a EntityPath) -> Served<'a, ()>;

/// An action's handler.
pub type ActionHandler = for<'a, 'r> fn(&'a ActionRequest<'r>) -> Served<'a, Response>;

/// A [`WriteHandler`] from an `async fn(&WriteRequest, &mut WriteScope)`.
macro_rules! write_handler {
    ($handler:path) => {{
        fn boxed<'a, 'r, 's>(
            request: &'a $crate::feeds::handler::write::WriteRequest<'r>,
            writes: &'a mut $crate::store::WriteScope<'s>,
        ) -> $crate::feeds::handler::feed::Served<'a, $crate::feeds::handler::write::Written>
        {
            Box::pin($handler(request, writes))
        }
        boxed as $crate::feeds::handler::feed::WriteHandler
    }};
}

/// An [`ActionHandler`] from an `async fn(&ActionRequest)`.
macro_rules! action_handler {
    ($handler:path) => {{
        fn boxed<'a, 'r>(
            request: &'a $crate::feeds::handler::action::ActionRequest<'r>,
        ) -> $crate::feeds::handler::feed::Served<'a, axum::response::Response> {
            Box::pin($handler(request))
        }
        boxed as $crate::feeds::handler::feed::ActionHandler
    }};
}

pub(crate) use {action_handler, write_handler};

/// An entity set as served: its declaration (`$metadata`, reads, what methods it
/// takes) and the handler of each write method it serves.
pub struct Feed {
    pub set: &'static EntitySet,
    pub before_read: Option<BeforeRead>,
    /// Which rows each reader sees, where not all of the area's.
    pub rows_seen: Option<RowsSeen>,
    /// POST to the collection.
    pub post: Option<WriteHandler>,
    /// PUT of one entity.
    pub put: Option<WriteHandler>,
    /// PATCH and MERGE (version 3's name for it) of one entity.
    pub merge: Option<WriteHandler>,
    /// DELETE of one entity.
    pub delete: Option<WriteHandler>,
}

impl Feed {
    /// A feed that is only read.
    pub const fn read_only(set: &'static EntitySet) -> Feed {
        Feed {
            set,
            before_read: None,
            rows_seen: None,
            post: None,
            put: None,
            merge: None,
            delete: None,
        }
    }

    /// The handler of `verb`, a write; `None` when this version does not serve it.
    pub fn writer(&self, verb: Verb) -> Option<WriteHandler> {
        match verb {
            Verb::Post => self.post,
            Verb::Put => self.put,
            Verb::Patch | Verb::Merge => self.merge,
            Verb::Delete => self.delete,
            Verb::Get | Verb::Head => None,
        }
    }
}

/// An action as served: its declaration and its handler.
pub struct ServedAction {
    pub action: Action,
    pub invoke: ActionHandler,
}

/// What one feature serves: its feeds, its actions, and the complex types those
/// return.
pub struct Feature {
    pub feeds: &'static [&'static Feed],
    pub actions: &'static [ServedAction],
    pub complex_types: &'static [ComplexType],
}
