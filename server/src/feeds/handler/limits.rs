//! What the declarations share: limits on the strings clients write, and the write
//! methods of the feeds that take some.

use crate::odata::model::{Verb, Writes};

/// The longest overall comment on a ScoringResult, in characters: feedback on an
/// essay runs to a few thousand words at most.
pub const COMMENTS_LENGTH: u32 = 16_000;
/// The longest comment on one dimension, in characters.
pub const COMMENT_LENGTH: u32 = 4_000;
/// Names and identifiers clients give (snapshots, print batches, attempts).
pub const NAME_LENGTH: u32 = 256;

/// The scoring feeds: spec, "The scoring feeds support PUT and do not support PATCH or MERGE."
pub const PUT_ONLY: Writes = Writes {
    entity: &[Verb::Put],
    collection: &[],
    links: &[],
};

/// The external-delivery feeds: entities are created by POST to the collection.
pub const CREATE_ONLY: Writes = Writes {
    entity: &[],
    collection: &[Verb::Post],
    links: &[],
};

/// Snapshots and print batches: created by POST (spec, "External delivery");
/// renamed by PATCH or MERGE and, while nothing uses them, deleted (our extension,
/// docs/delivery.md: a coordinator's mistakes can be undone).
pub const CREATE_CHANGE_DELETE: Writes = Writes {
    entity: &[Verb::Patch, Verb::Merge, Verb::Delete],
    collection: &[Verb::Post],
    links: &[],
};

/// The longest banked comment, in characters: as long as a dimension's comment,
/// which it is inserted into.
pub const BANKED_COMMENT_LENGTH: u32 = COMMENT_LENGTH;

/// The longest note on a flag or an answer to one, in characters: as long as a
/// dimension's comment.
pub const FLAG_NOTE_LENGTH: u32 = COMMENT_LENGTH;

/// The longest reasons a lead gives a seed, in characters (`model::seeds`).
pub const SEED_REASONS_LENGTH: u32 = crate::model::seeds::REASONS_LENGTH as u32;
pub const RELEASE_NOTE_LENGTH: u32 = crate::model::pauses::NOTE_LENGTH as u32;

/// Marking plans: created by POST, then replaced whole by PUT
/// (docs/marking-quality.md); never deleted by a client.
pub const CREATE_AND_PUT: Writes = Writes {
    entity: &[Verb::Put],
    collection: &[Verb::Post],
    links: &[],
};

/// Markings: taken by POST, replaced whole by PUT, and given back by DELETE
/// while not submitted (docs/marking-quality.md).
pub const CREATE_PUT_DELETE: Writes = Writes {
    entity: &[Verb::Put, Verb::Delete],
    collection: &[Verb::Post],
    links: &[],
};

/// The longest `Points` of an annotation, and its note (`model::annotations`).
pub const ANNOTATION_POINTS_LENGTH: u32 = crate::model::annotations::POINTS_LENGTH as u32;
pub const ANNOTATION_TEXT_LENGTH: u32 = crate::model::annotations::NOTE_LENGTH as u32;
