//! Table and column names for sea-query, one enum per table, matching the
//! migrations; a file per feature.

mod accounts;
mod content;
mod delivery;
mod marking;
mod results;
mod scoring;

pub use accounts::*;
pub use content::*;
pub use delivery::*;
pub use marking::*;
pub use results::*;
pub use scoring::*;
