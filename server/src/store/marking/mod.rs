//! Marking quality (docs/marking-quality.md): flags to a lead marker and their
//! answers; double marking's plans, markings and queue; answer groups.

mod annotations;
mod answer_group_plans;
mod answer_groups;
mod answer_keys;
mod figures;
mod final_marks;
mod flags;
mod marked_scripts;
mod marking_rows;
mod pauses;
mod plans;
mod regrade_groups;
mod regrade_marks;
mod regrades;
mod rounds;
mod seed_copies;
mod seeds;

pub use annotations::{AnswerBlock, StoredAnnotation};
pub use answer_groups::{AlikeTo, GroupSource, NewGroupMarking};
pub use figures::SubmittedMarking;
pub use flags::{NewFlag, NewFlagAnswer, StoredFlag};
pub use marking_rows::StoredMarking;
pub use pauses::{NewPause, OpenPause};
pub use regrades::{FoundRubric, NewRegrade, RegradeCounts, RegradeRefused};
pub use rounds::WaitingTask;
pub use seed_copies::SeedCopy;
pub use seeds::{NewSeed, SeedableTask};
