//! A customer's content: imported assessments and their questions, and the bulk
//! writes of seeding.

mod class_list;
mod import;
mod import_rows;
mod import_sources;
mod instances;
mod people;
mod question_parts;
pub(crate) mod question_rows;
mod retire;
mod roster;
mod roster_members;
pub mod seed_writes;

pub use people::{GroupFields, PersonFields};
pub use retire::StoredAssessment;
pub use roster::RosterApplied;
