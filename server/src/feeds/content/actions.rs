//! Our extension's imports of content (docs/content.md) and rosters (docs/rosters.md), as `$metadata` declares
//! it, with its handler and the report it returns.

use super::{import, roster_import};
use crate::feeds::handler::action_handler;
use crate::feeds::handler::ServedAction;
use crate::odata::model::{Action, ComplexType};

pub static ACTIONS: &[ServedAction] = &[
    // Our extension: a QTI content package into the caller's area (docs/content.md).
    ServedAction {
        action: Action {
            name: "ImportQtiPackage",
            binding: None,
            parameters: &[
                ("Package", "Edm.Binary"),
                ("FileName", "Edm.String"),
                ("Preview", "Edm.Boolean"),
            ],
            returns: Some("ScoreDesk.ContentImportReport"),
            function: false,
        },
        invoke: action_handler!(import::import_qti),
    },
    // Our extension: a school's roster into the caller's area (docs/rosters.md).
    ServedAction {
        action: Action {
            name: "ImportRoster",
            binding: None,
            parameters: &[
                ("Roster", "Edm.Binary"),
                ("FileName", "Edm.String"),
                ("Preview", "Edm.Boolean"),
            ],
            returns: Some("ScoreDesk.RosterImportReport"),
            function: false,
        },
        invoke: action_handler!(roster_import::import_roster),
    },
];

pub static COMPLEX_TYPES: &[ComplexType] = &[
    ComplexType {
        name: "RosterImportReport",
        properties: &[
            ("Preview", "Edm.Boolean"),
            ("Format", "Edm.String"),
            ("ParticipantsCreated", "Edm.Int32"),
            ("ParticipantsUpdated", "Edm.Int32"),
            ("ParticipantsUnchanged", "Edm.Int32"),
            ("GroupsCreated", "Edm.Int32"),
            ("GroupsUpdated", "Edm.Int32"),
            ("GroupsUnchanged", "Edm.Int32"),
            ("MembershipsAdded", "Edm.Int32"),
            ("MembershipsRemoved", "Edm.Int32"),
            ("ParticipantsLeft", "Edm.Int32"),
            ("GroupsEmptied", "Edm.Int32"),
            ("NotParticipants", "Collection(ScoreDesk.NotParticipants)"),
        ],
    },
    ComplexType {
        name: "NotParticipants",
        properties: &[("Role", "Edm.String"), ("Count", "Edm.Int32")],
    },
    ComplexType {
        name: "ContentImportReport",
        properties: &[
            ("Preview", "Edm.Boolean"),
            ("QtiVersion", "Edm.String"),
            ("AssessmentId", "Edm.Int64"),
            ("AssessmentName", "Edm.String"),
            ("Assessment", "Edm.String"),
            ("Questions", "Collection(ScoreDesk.ImportedQuestion)"),
            ("Skipped", "Collection(ScoreDesk.SkippedItem)"),
            ("ScoreBands", "Collection(ScoreDesk.ImportedScoreBand)"),
            ("Images", "Edm.Int32"),
            ("TopicsCreated", "Edm.Int32"),
            ("Notes", "Collection(Edm.String)"),
        ],
    },
    ComplexType {
        name: "ImportedQuestion",
        properties: &[
            ("Position", "Edm.Int32"),
            ("Item", "Edm.String"),
            ("File", "Edm.String"),
            ("Title", "Edm.String"),
            ("Text", "Edm.String"),
            ("QuestionId", "Edm.Int64"),
            ("Outcome", "Edm.String"),
            ("Revision", "Edm.Int32"),
            ("PreviousQuestionId", "Edm.Int64"),
            ("QuestionType", "Edm.String"),
            ("MaxScore", "Edm.Int32"),
            ("Choices", "Edm.Int32"),
            ("Scoring", "Edm.String"),
            ("Keys", "Collection(Edm.String)"),
            ("NumericKeys", "Edm.Boolean"),
            ("Parts", "Collection(Edm.String)"),
            ("Topic", "Edm.String"),
            ("Notes", "Collection(Edm.String)"),
        ],
    },
    ComplexType {
        name: "SkippedItem",
        properties: &[
            ("Item", "Edm.String"),
            ("File", "Edm.String"),
            ("Reason", "Edm.String"),
        ],
    },
    ComplexType {
        name: "ImportedScoreBand",
        properties: &[("MinPercentage", "Edm.Int32"), ("Title", "Edm.String")],
    },
];
