//! What is delivered and answered: questions, answers, participants, groups and
//! assessments (read here; brought in by the import of content, our extension's
//! `ImportQtiPackage`; participants and groups by `ImportRoster` and also written
//! one at a time).

mod actions;
mod assessments;
mod import;
mod links;
mod people;
mod roster_import;
mod sets;

use crate::feeds::handler::{Feature, Feed};

pub use sets::{ANSWERS, ASSESSMENTS, GROUPS, PARTICIPANTS, QUESTIONS};

pub static FEATURE: Feature = Feature {
    feeds: &[
        &Feed::read_only(&ANSWERS),
        &assessments::FEED,
        &people::GROUPS_FEED,
        &people::PARTICIPANTS_FEED,
        &Feed::read_only(&QUESTIONS),
    ],
    actions: actions::ACTIONS,
    complex_types: actions::COMPLEX_TYPES,
};
