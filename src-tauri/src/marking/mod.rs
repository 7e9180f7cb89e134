//! Marking quality on the desktop (docs/marking-quality.md): a marker flags the
//! script in front of him to the lead marker; the lead's desk lists the flags and
//! answers them, releasing a task or taking it over. A script chosen for double
//! marking is marked again, blind, from the second-marking desk. The lead reads
//! each marker's figures on a question, makes check scripts (seeds) of scripts
//! he marked, and releases markers their check scripts paused. A marker's
//! annotations on the script are placed and read here too.

mod annotations;
pub mod commands;
mod feed_rows;
mod figures;
mod flags;
mod pauses;
mod second_desk;
mod second_marking;
mod seeds;

pub use annotations::{Annotation, NewAnnotation};
pub use figures::{
    figures_access, figures_questions, marker_figures, DriftPoint, FiguresQuestion, MarkerFigures,
    MarkerLine,
};
pub use flags::FlagDesk;
pub use pauses::{release_pause, seeds_desk, SeedsDesk};
pub use second_desk::SecondMarkingDesk;
pub use second_marking::{
    give_back_marking, open_marking, save_marking, take_marking, MarkingDraft, MarkingOutcome,
    MarkingView,
};
pub use seeds::{make_seed, SeedEntry};
