//! The coordinator's work through the OData API: the assessments, their snapshots,
//! and the printable pages (docs/desktop.md, "Delivery"). The server's 403 is the
//! fence; the app only asks whether the account gets past it, to show the screens.

mod print_window;
mod snapshots;

pub use print_window::{open_printable, PrintPages};
pub use snapshots::{
    create_snapshot, delivery_assessments, snapshots, DeliveryAssessment, Snapshot,
};

use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;

/// Whether this account may use the delivery feeds (coordinators and
/// administrators): a read of no snapshots, which a scorer is refused.
pub async fn delivery_access(client: &ODataClient) -> Result<bool, CommandError> {
    match client
        .get_json("AssessmentSnapshots", &[("$top", "0")])
        .await
    {
        Ok(_) => Ok(true),
        Err(RequestFailure::Unauthorized(_)) => Ok(false),
        Err(other) => Err(other.into()),
    }
}
