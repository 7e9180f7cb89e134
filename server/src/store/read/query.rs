//! What a read asks for and what it gets: the scope of rows, the typed query, and
//! the rows and media read.

use crate::odata::edm::EdmType;
use crate::odata::model::{EntitySet, Navigation, Property};
use crate::odata::typed::{Condition, Lookup, OrderTerm};
use crate::odata::value::Value;

/// Which rows of an entity set a read addresses, before `$filter`.
#[derive(Debug, Clone)]
pub struct Scope {
    pub set: &'static EntitySet,
    pub constraints: Vec<Constraint>,
}

impl Scope {
    /// Every row of `set` (in the area).
    pub fn all(set: &'static EntitySet) -> Self {
        Self {
            set,
            constraints: Vec::new(),
        }
    }
}

/// One condition on the rows of a scope.
#[derive(Debug, Clone)]
pub enum Constraint {
    /// A property equals a value (a key part from the URL).
    Equals(&'static Property, Value),
    /// The rows `navigation` reaches from a source row whose join columns hold `from`.
    Reached {
        navigation: &'static Navigation,
        from: Vec<Value>,
    },
    /// The rows `navigation` reaches from any of several source rows (an expansion).
    ReachedFromAny {
        navigation: &'static Navigation,
        from: Vec<Vec<Value>>,
    },
    /// The column is null: the members a navigation holds now
    /// ([`Navigation::current`]).
    Null(&'static str),
    /// The column is null or holds another value than this one: rows a reader
    /// may not be shown because they name him (a marker is not offered a task he
    /// marked, feeds/marking/queue.rs).
    NotEqual(&'static str, Value),
    /// The rows of no other reader's seed copy (docs/marking-quality.md, "Seeds"):
    /// a copy is its marker's alone, as another area's rows are that area's.
    NoSeedCopyOfOthers {
        /// Where the row says which result it is of (`id` for a result itself).
        result_column: &'static str,
        /// The reader's user name: his own copies stay.
        reader: Value,
    },
    /// No open task (`status` 0) of these questions: a marker paused from them
    /// (docs/marking-quality.md, "Pauses") is offered none of their tasks.
    NoOpenTaskOf(Vec<Value>),
    /// No row of these questions: a paused marker is offered no round of them
    /// to take either (`SecondMarkingQueue`).
    NotOfQuestions(Vec<Value>),
}

impl Constraint {
    /// The constraints of reaching through `navigation` without a key: the rows it
    /// reaches, and only its current members where it has former ones.
    pub fn reached_now(navigation: &'static Navigation, reached: Constraint) -> Vec<Constraint> {
        let mut constraints = vec![reached];
        constraints.extend(navigation.current.map(Constraint::Null));
        constraints
    }
}

/// A read of rows: a scope, filtered, ordered, after a continuation, at most `limit`.
pub struct RowsQuery<'a> {
    pub scope: &'a Scope,
    pub filter: Option<&'a Condition>,
    pub order: &'a [OrderTerm],
    /// The order values of the last row already sent (see [`order_kinds`]).
    pub after: Option<&'a [Value]>,
    pub limit: u64,
    pub offset: Option<u64>,
    /// Columns of the set's own table to return beside each row (join values that
    /// expansions group by), with their kinds.
    pub extra: &'a [(&'static str, EdmType)],
    /// To-one navigations whose target is read in the same statement, through a
    /// LEFT JOIN (see [`Navigation::joinable`]): an expansion without a second
    /// statement.
    pub joined: &'a [&'static Navigation],
    pub lookup: Lookup,
}

impl<'a> RowsQuery<'a> {
    /// The first `limit` rows of `scope` that pass `filter`, in `order`: no
    /// continuation, offset or extra columns (plan tests and the benchmark's plans).
    pub fn first_page(
        scope: &'a Scope,
        filter: Option<&'a Condition>,
        order: &'a [OrderTerm],
        limit: u64,
        lookup: Lookup,
    ) -> Self {
        Self {
            scope,
            filter,
            order,
            after: None,
            limit,
            offset: None,
            extra: &[],
            joined: &[],
            lookup,
        }
    }
}

/// One row read.
pub struct Row {
    /// The set's stored properties, in declaration order
    /// ([`EntitySet::stored_properties`]).
    pub values: Vec<Value>,
    /// For media-link entries whose type is stored per row.
    pub media_type: Option<String>,
    /// The row's place in the read's total order, for a continuation.
    pub order_values: Vec<Value>,
    /// The `extra` columns asked for.
    pub extra: Vec<Value>,
    /// The target of each `joined` navigation, in order; `None` where there is none.
    pub joined: Vec<Option<JoinedRow>>,
}

/// A navigation's target read with its source's row.
pub struct JoinedRow {
    /// The target's stored properties, in declaration order.
    pub values: Vec<Value>,
    pub media_type: Option<String>,
}

/// A media resource as stored.
pub struct MediaContent {
    pub media_type: String,
    pub bytes: Vec<u8>,
}
